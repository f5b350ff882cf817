import type { LlmClient } from '../llm/types.js';
import { MemoryManager } from '../memory/manager.js';
import type { DrainResult } from '../memory/types.js';
import { MemoryClosedError, describeError } from '../shared/errors.js';

export interface MemoryHostOptions {
  repoRoot: string;
  /** Without a model the server still searches, reads and queues turns; jobs wait for a process with one. */
  llm?: LlmClient;
  /** Timeout of one worker model request (M-10.2: at most 60 s). */
  requestTimeoutMs?: number;
  /** One line for stderr. */
  log: (line: string) => void;
}

/**
 * Owns the server's MemoryManager for the life of a client connection: runs the background worker while
 * the Memory is healthy, and while it is degraded opens the database again before each request (verification
 * only, never a repair), so a database recovered from the CLI is used without restarting the server.
 */
export class MemoryHost {
  private manager: MemoryManager;
  private degraded: boolean;
  private reopening: Promise<void> | null = null;
  private closed = false;

  private constructor(private readonly options: MemoryHostOptions) {
    this.manager = this.openManager();
    this.degraded = this.manager.health().health === 'degraded';
    if (!this.degraded) this.manager.start();
  }

  /**
   * Opens (or creates) the project's Memory. Throws MemoryStorageError when its files cannot be reached
   * (permissions, full disk, locks, links).
   */
  static open(options: MemoryHostOptions): MemoryHost {
    return new MemoryHost(options);
  }

  get repoRoot(): string {
    return this.options.repoRoot;
  }

  get modelConfigured(): boolean {
    return this.options.llm !== undefined;
  }

  /** True while the background worker runs (a healthy Memory, connected client). */
  get workerRunning(): boolean {
    return !this.closed && !this.degraded;
  }

  /** The manager to serve a request with; a degraded one is looked at again first. */
  async current(): Promise<MemoryManager> {
    if (this.closed) throw new MemoryClosedError('the MCP server is shutting down');
    if (this.degraded) {
      this.reopening ??= this.reopen().finally(() => {
        this.reopening = null;
      });
      await this.reopening;
    }
    return this.manager;
  }

  private openManager(): MemoryManager {
    return MemoryManager.open({
      repoRoot: this.options.repoRoot,
      ...(this.options.llm ? { llm: this.options.llm } : {}),
      ...(this.options.requestTimeoutMs !== undefined ? { requestTimeoutMs: this.options.requestTimeoutMs } : {}),
    });
  }

  private async reopen(): Promise<void> {
    await this.manager.close();
    this.manager = this.openManager();
    const status = this.manager.status();
    if (status.health === 'healthy') {
      this.degraded = false;
      this.manager.start();
      this.options.log('Memory is healthy again; background work resumed');
    }
  }

  /**
   * Stops background work; with `drain`, first gives the jobs pending now their exit pass (M-10.2). Never
   * throws: a failure to close is logged, the process ends anyway.
   */
  async close(options: { drain: boolean }): Promise<DrainResult> {
    const empty: DrainResult = { attempted: 0, succeeded: 0, retried: 0, failed: 0, warnings: [] };
    if (this.closed) return empty;
    this.closed = true;
    await this.reopening;
    try {
      return await this.manager.close({ drain: options.drain && !this.degraded && this.modelConfigured });
    } catch (error) {
      this.options.log(`closing Memory failed: ${describeError(error)}`);
      return empty;
    }
  }

  /** Jobs the exit pass would try now (0 when degraded or closed). */
  pendingJobs(): number {
    if (this.closed || this.degraded) return 0;
    try {
      return this.manager.openJobs().pending;
    } catch {
      return 0;
    }
  }
}
