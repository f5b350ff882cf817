import { heartbeatInterval } from './leases.js';

/**
 * Keeps leases alive while their work runs (M-9.1): the open turns of a manager and the batch a worker has
 * in flight. While it holds any id it renews them three times per lease (see `heartbeatInterval`) through
 * `renew`, which returns how many leases it extended.
 */
export class LeaseKeeper {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly leaseMs: number,
    private readonly renew: (ids: string[]) => number,
  ) {}

  /** Starts keeping `id` alive (the timer runs while anything is held; it never keeps the process up). */
  hold(id: string): void {
    this.held.add(id);
    if (this.timer) return;
    this.timer = setInterval(() => this.beat(), heartbeatInterval(this.leaseMs));
    this.timer.unref();
  }

  /** Stops keeping `id` alive; the timer stops with the last one. */
  release(id: string): void {
    this.held.delete(id);
    if (this.held.size === 0) this.stop();
  }

  /** Renews every held lease now; how many were extended. A busy database delays one beat: the lease survives it. */
  beat(): number {
    if (this.held.size === 0) return 0;
    try {
      return this.renew([...this.held]);
    } catch {
      return 0;
    }
  }

  /** Stops the timer (a closing manager); what is held stays held. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
