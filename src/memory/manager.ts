import { MEMORY_REQUEST_TIMEOUT_MS } from '../config/config.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { MemoryIntentError, MemorySchemaError, MemoryStorageError, describeError } from '../shared/errors.js';
import { type IdGenerator, randomIds } from '../shared/ids.js';
import { clip } from '../shared/text.js';
import { BUSY_TIMEOUT_MS, type Connection } from './db/connection.js';
import { type CheckedExport, checkExport, restoreExport } from './lifecycle/import.js';
import { MemoryFile } from './lifecycle/memory-file.js';
import { dataDir, exportsDir, memoryDbPath } from './paths.js';
import type { UserActDeps } from './pipeline/user-act.js';
import type { RememberKind } from './remember-command.js';
import { history, routingContext, routingItems } from './retrieval/projection.js';
import { readMemory, showMemory } from './retrieval/read.js';
import { searchMemory } from './retrieval/search.js';
import { readStatus } from './retrieval/status.js';
import { changesSince } from './store/changes.js';
import { dismissHeld } from './store/held-dismiss.js';
import { forgetItem, indexActiveItems, listUsableItems, resolveItemId } from './store/items.js';
import { readOpenJobs } from './store/job-counts.js';
import { retryJobs } from './store/job-failures.js';
import { DEFAULT_JOB_LEASE_MS, DEFAULT_TURN_LEASE_MS, leaseOwnerName } from './store/leases.js';
import { OpenTurns } from './store/open-turns.js';
import { Recovery } from './store/recovery.js';
import { recentRefusals, recentSuggestions } from './store/refusals.js';
import { archiveAndCreateThread, bindActiveThread, requireActiveThread } from './store/threads.js';
import * as T from './types.js';
import { WorkerHost } from './worker-host.js';

export type { MemoryManagerOptions } from './types.js';

/** The `limit` of a list read: 1–1000, 20 by default. */
const listLimit = (options: { limit?: number }): number => Math.max(1, Math.min(1000, Math.floor(options.limit ?? 20)));

/**
 * The Memory facade (INTERFACES.md §1): short delegations, each through the one guard of its database file
 * (`MemoryFile.guard`: closed, degraded and storage failures the same way for every method). All is synchronous
 * SQLite but model calls, made between transactions by the pipeline, which loads on first use.
 */
export class MemoryManager {
  readonly repoRoot: string;
  readonly dbPath: string;
  private readonly file: MemoryFile;
  private readonly now: Clock;
  private readonly ids: IdGenerator;
  private readonly recovery: Recovery;
  private readonly turns: OpenTurns;
  private readonly workers: WorkerHost;
  /** What `remember` and `keep` need of this manager. */
  private readonly acts: UserActDeps;

  private constructor(private readonly options: T.MemoryManagerOptions) {
    const { now = systemClock, ids = randomIds, turnLeaseMs = DEFAULT_TURN_LEASE_MS, jobLeaseMs = DEFAULT_JOB_LEASE_MS } = options;
    this.repoRoot = options.repoRoot;
    this.dbPath = memoryDbPath(options.repoRoot);
    this.now = now;
    this.ids = ids;
    this.file = new MemoryFile(this.dbPath, { now, ids, busyTimeoutMs: options.busyTimeoutMs });
    const conn = (): Connection => this.file.healthy();
    let ownerName: string | undefined;
    const owner = (): string => (ownerName ??= options.workerId ?? leaseOwnerName(ids('worker')));
    const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    this.recovery = new Recovery({ now, ids, turnLeaseMs, jobLeaseMs, busyTimeoutMs, warn: (line) => this.file.warnings.push(line) });
    this.turns = new OpenTurns({ conn, owner, now, ids, leaseMs: turnLeaseMs, finished: () => this.workers.wake() });
    const { llm, requestTimeoutMs = MEMORY_REQUEST_TIMEOUT_MS } = options;
    const recover = (): void => this.recovery.run(conn());
    this.workers = new WorkerHost(() => ({ conn, llm, now, ids, owner: owner(), jobLeaseMs, requestTimeoutMs, recover }));
    const worker = llm ? () => this.workers.load() : null;
    this.acts = { conn, now, ids, recoverIfDeferred: () => this.recovery.ifDeferred(conn()), worker };
    if (this.file.health === 'healthy') this.recovery.atStartup(conn());
  }

  /** Opens the Memory of a project; a degraded one is a state, files that cannot be reached a MemoryStorageError. */
  static open(options: T.MemoryManagerOptions): MemoryManager {
    return new MemoryManager(options);
  }

  /** What a person should hear when Memory opens (a clear a crash interrupted and this start finished). */
  startupNotices(): string[] {
    return this.file.guard('state', 'cannot read the notices', () => [...this.file.notices]);
  }

  /** Health, counts and errors. Works while degraded. */
  status(): T.MemoryStatus {
    return this.file.guard('diagnostic', 'cannot read Memory status', (conn) =>
      readStatus(conn, { ...this.file.report(), backgroundError: this.workers.backgroundError }),
    );
  }
  /** Health as this manager knows it, without reading the database (`status()` counts every table). */
  health(): T.MemoryHealth {
    return this.file.guard('state', 'cannot read Memory health', () => this.file.describe());
  }
  /** Unfinished jobs by state (index-only); while degraded, what the snapshot can still say, else all zero. */
  openJobs(): T.OpenJobCounts {
    return this.file.guard('diagnostic', 'cannot read Memory jobs', (conn) => readOpenJobs(conn, this.file.health === 'healthy'));
  }
  /** M-9.4a: puts failed jobs back in the queue with a fresh run of tries — one (id or prefix ≥ 4) or all. */
  retry(jobId?: string): T.RetryResult {
    return this.file.guard('healthy', 'cannot retry jobs', (conn) => {
      this.recovery.ifDeferred(conn);
      const jobIds = retryJobs(conn, jobId, this.now());
      if (jobIds.length > 0) this.workers.wake();
      return { jobIds };
    });
  }

  /** M-3.2: stores the RAW user text and the owner lease before any model call; binds the request to the active thread. */
  beginTurn(input: { intent: T.OrdinaryIntent; userText: string; scopePaths?: string[] }): T.TurnHandle {
    return this.file.guard('healthy', 'cannot store the turn', (conn) => {
      if (!T.isOrdinaryIntent(input.intent)) throw new MemoryIntentError(String(input.intent));
      this.recovery.ifDeferred(conn);
      return this.turns.admit(conn, input);
    });
  }
  /** Stores the final assistant text the user saw and queues the turn's extraction job. */
  completeTurn(handle: T.TurnHandle, assistantText: string): T.TurnRecord {
    return this.file.guard('healthy', 'cannot store the answer', (conn) =>
      this.turns.finish(conn, handle, 'completed', assistantText, null),
    );
  }
  /** Marks the turn failed (the RAW user text stays) and queues its extraction job. */
  failTurn(handle: T.TurnHandle, error?: unknown): T.TurnRecord {
    const failure = error === undefined ? 'failed' : clip(describeError(error), 2000);
    return this.file.guard('healthy', 'cannot store the answer', (conn) => this.turns.finish(conn, handle, 'failed', null, failure));
  }
  /** Renews this manager's open turn leases now (M-9.1; a timer does it while turns are open); how many. */
  heartbeat(): number {
    return this.file.guard('healthy', 'cannot renew the turn leases', () => this.turns.beat());
  }

  /** The bound thread's recent completed turns, bounded, oldest first, never the handle's own (M-8.1). */
  history(handle: T.TurnHandle): T.ChatMessage[] {
    return this.file.guard('healthy', 'cannot read the conversation history', (conn) => history(conn, handle));
  }
  /** The bounded Memory routing context, or '' when there is nothing to say (M-8.2). */
  routingContext(handle: T.TurnHandle): string {
    return this.file.guard('healthy', 'cannot read the routing context', (conn) => routingContext(conn, handle));
  }
  /** The items the routing context of this request shows, in its order (M-8.3: chosen by relevance, then recency). */
  routingItems(handle: T.TurnHandle): T.RoutedItem[] {
    return this.file.guard('healthy', 'cannot read the routing context', (conn) => routingItems(conn, handle));
  }
  /** A read-only binding to the active thread, for requests without a turn of their own (the MCP server). */
  bindActiveThread(): T.TurnHandle {
    return this.file.guard('healthy', 'cannot read the active thread', (conn) => bindActiveThread(conn));
  }
  /** At most 5 hits in at most three statements (M-7.4). */
  search(handle: T.TurnHandle, query: string): T.SearchHit[] {
    return this.file.guard('healthy', 'cannot search Memory', (conn) => searchMemory(conn, handle.threadId, query));
  }
  /** Bounded detail and provenance of a usable memory (M-7.6). */
  read(handle: T.TurnHandle, memoryId: string): T.MemoryDetail {
    return this.file.guard('healthy', 'cannot read the memory', (conn) => readMemory(conn, handle.threadId, memoryId));
  }

  /** The usable derived memories: active preferences, decisions and the active thread's discussions. */
  list(): T.MemoryItemSummary[] {
    return this.file.guard('healthy', 'cannot list memories', (conn) => listUsableItems(conn));
  }
  /** One memory with its revisions and sources, whatever its status. Works while degraded. */
  show(memoryId: string): T.MemoryDetail {
    return this.file.guard('diagnostic', 'cannot read the memory', (conn) => {
      if (!conn) throw new MemorySchemaError(this.file.degradedReason ?? 'closed');
      return showMemory(conn, memoryId);
    });
  }
  /** M-6.3: the item leaves routing and search at once and its candidates are suppressed; RAW turns stay. */
  forget(memoryId: string): T.ForgetResult {
    return this.file.guard('healthy', 'cannot forget the memory', (conn) => {
      this.recovery.ifDeferred(conn);
      return forgetItem(conn, resolveItemId(conn, memoryId), this.now());
    });
  }

  /** `/new` (M-3.4): one chance for the old thread's pending jobs, then archive it and start a new thread. */
  async newThread(): Promise<T.NewThreadResult> {
    return this.file.guard('healthy', 'cannot start a new thread', async (conn) => {
      this.recovery.ifDeferred(conn);
      const old = requireActiveThread(conn);
      const drain = await (await this.workers.load()).drain({ threadId: old.id });
      const { archived, created } = archiveAndCreateThread(this.file.healthy(), this.ids('thread'), this.now());
      return { archivedThreadId: archived, threadId: created, drain };
    });
  }

  /** `/memory clear --confirm` (M-10.3): fences old workers, deletes all Memory data, makes one empty thread (see MemoryFile). */
  clear(): T.ClearResult {
    return this.file.guard('diagnostic', 'clear failed', () => {
      const { seed, recreated, movedAside } = this.file.clear();
      const status = this.status();
      if (status.health !== 'healthy' || status.activeThreadId === null) {
        throw new MemoryStorageError(`clear could not create a healthy Memory: ${status.degradedReason ?? 'no active thread'}`);
      }
      return { generation: seed.generation, threadId: status.activeThreadId, recreated, createdAt: seed.createdAt, movedAside };
    });
  }
  /** `/memory export` (M-10.4): a new RAW JSON snapshot under `.autopatch-j/exports/`. Works while degraded. */
  export(): T.ExportResult {
    return this.file.guard('diagnostic', 'export failed', () => this.file.export(exportsDir(this.repoRoot)));
  }
  /**
   * Checks an export file without opening any Memory (`memory import` runs it before an absent Memory is made),
   * its active memories by the pipeline's evidence check (M-6.4, loaded on first use). The caller disposes of it.
   */
  static async checkExportFile(options: { repoRoot: string; file: string }): Promise<CheckedExport> {
    const { unbackedRevision } = await import('./pipeline/consolidation.js');
    const { repoRoot, file } = options;
    return checkExport(file, { repoRoot, dataDir: dataDir(repoRoot), index: indexActiveItems, unbacked: unbackedRevision });
  }
  /**
   * `memory import FILE`: restores a RAW export (a path, or what `checkExportFile` returned: the caller disposes of
   * it) into this healthy, empty Memory in one transaction with a new generation; refusals change nothing.
   */
  async restore(source: string | CheckedExport): Promise<T.ImportResult> {
    return this.file.guard('healthy', 'import failed (nothing was changed)', async () => {
      const check = (file: string): Promise<CheckedExport> => MemoryManager.checkExportFile({ repoRoot: this.repoRoot, file });
      const restored = await restoreExport(() => this.file.healthy(), source, check, this.now);
      this.workers.wake();
      return restored;
    });
  }

  /** Recent candidates the program refused, newest first, with their clipped quote and reason (M-5.4). */
  refused(options: { limit?: number } = {}): T.RefusedCandidate[] {
    return this.file.guard('healthy', 'cannot read the refusals', (conn) => conn.read(() => recentRefusals(conn, listLimit(options))));
  }
  /** Candidates the gate held for the user (M-5.7), newest first: not memories, never in routing or search. */
  suggestions(options: { limit?: number } = {}): T.SuggestedCandidate[] {
    return this.file.guard('healthy', 'cannot read suggestions', (conn) => conn.read(() => recentSuggestions(conn, listLimit(options))));
  }
  /** M-11.2: what the background Memory did since `since` (epoch ms, inclusive), oldest first (see `changesSince`). */
  changes(options: { since: number }): T.MemoryChange[] {
    return this.file.guard('healthy', 'cannot read Memory changes', (conn) => changesSince(conn, options.since));
  }

  /** M-5.7 `/remember`: the words become an ordinary turn whose extraction runs at once (see `rememberWords`). */
  async remember(input: { text: string; kind?: RememberKind; typed?: string }): Promise<T.RememberResult> {
    const rememberWords = async (): Promise<T.RememberResult> =>
      (await import('./pipeline/remember.js')).rememberWords(this.acts, this, input);
    return this.file.guard('healthy', 'cannot remember', rememberWords);
  }
  /** M-5.7 `keep`: a suggestion, or a refusal of the reading, verified again and consolidated (see `keepHeld`). */
  async keep(candidateId: string, options: { typed?: string } = {}): Promise<T.KeepResult> {
    const keepHeld = async (): Promise<T.KeepResult> => (await import('./pipeline/keep.js')).keepHeld(this.acts, candidateId, options);
    return this.file.guard('healthy', 'cannot keep the candidate', keepHeld);
  }
  /** M-5.7 `dismiss`: drops a suggestion (or a keepable refusal) from the lists; the RAW turns stay. Idempotent. */
  async dismiss(candidateId: string): Promise<void> {
    this.file.guard('healthy', 'cannot dismiss the candidate', (conn) => dismissHeld(conn, candidateId));
  }

  /** Runs due jobs now; `force` ignores the 2-turn / 30-second wait; `maxBatches` stops after that many batches. */
  async processDue(options: { force?: boolean; maxBatches?: number } = {}): Promise<T.ProcessResult> {
    return this.file.guard('healthy', 'cannot run Memory jobs', async (conn) => {
      this.recovery.ifDeferred(conn);
      const worker = await this.workers.load();
      const { force = false, maxBatches } = options;
      let batches = 0;
      return worker.processDue(maxBatches === undefined ? { force } : { force, keepGoing: () => batches++ < maxBatches });
    });
  }
  /** Starts background scheduling and heartbeats (M-5.1, M-9.3). */
  start(): void {
    this.file.guard('healthy', 'cannot start Memory', () => this.workers.start());
  }
  /** The background job in flight (the exit pass waits for it, Ctrl-C skips it), or null. Reads no database. */
  backgroundWork(): { kind: 'extraction' | 'consolidation'; jobs: number } | null {
    return this.file.guard('state', 'cannot read the background work', () => this.workers.busy());
  }
  /** Job leases of ended processes of this machine: taken back at start-up, and still leased (see Recovery). */
  goneProcessLeases(): { reclaimed: number; stillLeased: number; pids: number[] } {
    return this.file.guard('state', 'cannot read the leases', () => this.recovery.goneProcessLeases(this.file.connection()));
  }

  /**
   * Stops background work, with `drain` after the exit pass (M-10.2, see `WorkerHost.exitPass`); `onDrained` runs
   * then while Memory is still open (to read what the pass changed), what it throws ignored. Twice is harmless.
   */
  async close(options: { drain?: boolean; budgetMs?: number; onDrained?: () => void } = {}): Promise<T.DrainResult> {
    return this.file.guard('state', 'the exit pass could not finish (pending jobs stay queued)', async () => {
      let result: T.DrainResult = { attempted: 0, succeeded: 0, retried: 0, failed: 0, warnings: [] };
      if (this.file.health === 'closed') return result;
      try {
        await this.workers.stop();
        if (options.drain && this.file.health === 'healthy' && this.options.llm)
          result = await this.workers.exitPass(this.turns.openJobs(this.file.healthy()), options.budgetMs);
        if (options.onDrained && this.file.health === 'healthy') {
          try {
            options.onDrained();
          } catch {
            // A reader's failure never stops the close.
          }
        }
      } finally {
        this.turns.stop();
        this.file.close(this.workers.damageSeen);
      }
      return result;
    });
  }
}
