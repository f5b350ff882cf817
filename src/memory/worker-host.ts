import { describeError } from '../shared/errors.js';
import type { MemoryWorker, WorkerDeps } from './pipeline/worker.js';
import type { DrainResult } from './types.js';

/**
 * The manager's handle on its background worker. The pipeline (prompts, answer contracts, speech-act
 * lexicons) loads on first use, so a read-only command (`memory list`, `memory status`) opens Memory without
 * paying for it; until then there is nothing to wake, stop or ask.
 */
export class WorkerHost {
  private worker: MemoryWorker | null = null;
  private loading: Promise<MemoryWorker> | null = null;
  private wanted = false;

  /** `deps` is read when the worker loads. */
  constructor(private readonly deps: () => WorkerDeps) {}

  /** The worker, loaded on first use. */
  load(): Promise<MemoryWorker> {
    this.loading ??= import('./pipeline/worker.js').then(({ MemoryWorker }) => {
      this.worker = new MemoryWorker(this.deps());
      if (this.wanted) this.worker.start();
      return this.worker;
    });
    return this.loading;
  }

  /** Starts background scheduling (M-5.1, M-9.3), loading the worker when it is not loaded yet. */
  start(): void {
    this.wanted = true;
    if (this.worker) this.worker.start();
    else void this.load();
  }

  /** New work was queued (a finished turn, a retried job, a restore): due work runs soon, once started. */
  wake(): void {
    this.worker?.wake();
  }

  /** The batch the background worker is running now, or null. */
  busy(): { kind: 'extraction' | 'consolidation'; jobs: number } | null {
    return this.worker?.busy() ?? null;
  }

  /** The last error of a background tick, for status; null when the last tick went well. */
  get backgroundError(): string | null {
    const tick = this.worker?.lastTickError ?? null;
    return tick === null ? null : describeError(tick);
  }

  /** True once a job or tick met a damaged database. */
  get damageSeen(): boolean {
    return this.worker?.damageSeen ?? false;
  }

  /**
   * Stops background scheduling; the job in flight finishes first, so what it produced (a consolidation job)
   * is pending when an exit pass takes its snapshot instead of being left for the next process.
   */
  async stop(): Promise<void> {
    this.wanted = false;
    this.worker?.stop();
    if (!this.loading) return;
    const worker = await this.loading;
    worker.stop();
    await worker.idle();
  }

  /**
   * The exit pass (M-10.2), after `stop()`: the jobs `first` (the manager's own turns') first, new work claimed
   * for at most `budgetMs` (default EXIT_PASS_BUDGET_MS), the rest left queued.
   */
  async exitPass(first: readonly string[], budgetMs: number | undefined): Promise<DrainResult> {
    return (await this.load()).drain({ threadId: null, first, ...(budgetMs === undefined ? {} : { budgetMs }) });
  }
}
