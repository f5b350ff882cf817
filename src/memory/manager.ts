import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmClient } from '../llm/types.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { MemoryIntentError, MemoryNotFoundError, MemorySchemaError, MemoryStorageError, describeError } from '../shared/errors.js';
import { type IdGenerator, randomIds } from '../shared/ids.js';
import { clip } from '../shared/text.js';
import { bootstrap, bootstrapProblem, dataDir, memoryDbPath } from './bootstrap.js';
import { clearInPlace, readClearBasis, removeDatabaseFiles } from './clear.js';
import type { Connection } from './connection.js';
import { type ExportSnapshot, readSnapshot, unreadableSnapshot, writeExportFile } from './export.js';
import type { MemoryWorker } from './pipeline/worker.js';
import { readMemory, showMemory } from './retrieval/read.js';
import { history, routingContext } from './retrieval/projection.js';
import { searchMemory } from './retrieval/search.js';
import { forgetItem, listActiveItems, resolveItemId } from './store/items.js';
import { reclaimExpiredJobs, retryFailedJobs } from './store/jobs.js';
import { archiveAndCreateThread, requireActiveThread } from './store/threads.js';
import { admitTurn, finishTurn, heartbeatTurns, recoverExpiredTurns } from './store/turns.js';
import { readStatus } from './status.js';
import type {
  ChatMessage,
  ClearResult,
  DrainResult,
  ExportResult,
  ForgetResult,
  MemoryDetail,
  MemoryItemSummary,
  MemoryStatus,
  NewThreadResult,
  OrdinaryIntent,
  ProcessResult,
  RetryResult,
  SearchHit,
  TurnHandle,
  TurnRecord,
} from './types.js';
import { isOrdinaryIntent } from './types.js';

export interface MemoryManagerOptions {
  /** The project; the database is `<repoRoot>/.autopatch-j/memory.db`. */
  repoRoot: string;
  /** Without a model, jobs stay queued. */
  llm?: LlmClient;
  /** Epoch milliseconds; tests move time with it. */
  now?: Clock;
  /** Owner name written into leases. */
  workerId?: string;
  /** Id generator; tests make ids deterministic with it. */
  ids?: IdGenerator;
  /** Lease of an open turn; a running manager heartbeats it (M-9.1). Default 60 s. */
  turnLeaseMs?: number;
  /** Lease of a claimed job; heartbeated while its model call runs. Default 180 s. */
  jobLeaseMs?: number;
  /** Timeout of one worker model request (M-10.2: 60 s). */
  requestTimeoutMs?: number;
  /** How long a write waits for another process's lock (SQLite busy_timeout). Default 10 s. */
  busyTimeoutMs?: number;
}

type State =
  | { health: 'healthy'; conn: Connection }
  | { health: 'degraded'; reason: string; conn: Connection | null }
  | { health: 'closed' };

const DEFAULT_TURN_LEASE_MS = 60_000;
const DEFAULT_JOB_LEASE_MS = 180_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The Memory facade (INTERFACES.md §1). Everything is synchronous SQLite except model calls, which happen
 * between transactions. Degraded is an explicit state: the operational guard throws MemorySchemaError for
 * ordinary work, while status, show, export and clear keep working for diagnosis and recovery (M-2.4).
 */
export class MemoryManager {
  readonly repoRoot: string;
  readonly dbPath: string;
  private state: State;
  private warnings: string[];
  private readonly now: Clock;
  private readonly ids: IdGenerator;
  private readonly owner: string;
  private readonly turnLeaseMs: number;
  private readonly openTurns = new Set<string>();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** Loaded on first use (see loadWorker). */
  private worker: MemoryWorker | null = null;
  private workerLoad: Promise<MemoryWorker> | null = null;
  private workerWanted = false;

  private constructor(private readonly options: MemoryManagerOptions) {
    this.repoRoot = options.repoRoot;
    this.dbPath = memoryDbPath(options.repoRoot);
    this.now = options.now ?? systemClock;
    this.ids = options.ids ?? randomIds;
    this.owner = options.workerId ?? `${this.ids('worker')}@${process.pid}`;
    this.turnLeaseMs = options.turnLeaseMs ?? DEFAULT_TURN_LEASE_MS;
    const opened = this.bootstrapState();
    this.state = opened.state;
    this.warnings = opened.warnings;
    if (this.state.health === 'healthy') {
      try {
        this.recover();
      } catch (error) {
        // A busy database at startup is not fatal: the background pass recovers later (M-9.3).
        this.warnings.push(`startup recovery deferred: ${describeError(error)}`);
      }
    }
  }

  /**
   * Opens (creating or verifying) the Memory of a project. Never throws for a degraded database; throws
   * MemoryStorageError only when the `.autopatch-j` folder itself cannot be created.
   */
  static open(options: MemoryManagerOptions): MemoryManager {
    return new MemoryManager(options);
  }

  private bootstrapState(seed?: { generation: number; createdAt: number }): { state: State; warnings: string[] } {
    const result = bootstrap(this.dbPath, this.now(), this.ids, seed, { busyTimeoutMs: this.options.busyTimeoutMs });
    if (result.state === 'healthy') return { state: { health: 'healthy', conn: result.conn }, warnings: result.warnings };
    return { state: { health: 'degraded', reason: result.reason, conn: result.conn }, warnings: result.warnings };
  }

  /** M-10.1: expired open turns become interrupted (with their jobs); expired job leases are reclaimed. */
  private recover(): void {
    const conn = this.healthyConn();
    const now = this.now();
    recoverExpiredTurns(conn, now, () => this.ids('job'));
    reclaimExpiredJobs(conn, now);
  }

  /** The operational guard (M-2.4). */
  private healthyConn(): Connection {
    if (this.state.health === 'healthy') return this.state.conn;
    if (this.state.health === 'closed') throw new MemoryStorageError('Memory is closed');
    throw new MemorySchemaError(this.state.reason);
  }

  /** A connection for the diagnostic paths that bypass the guard (status, show, export, clear). */
  private anyConn(): Connection | null {
    if (this.state.health === 'closed') throw new MemoryStorageError('Memory is closed');
    return this.state.conn;
  }

  /**
   * The pipeline (prompts, answer contracts, speech-act lexicons) loads on first use, so a read-only
   * command (`memory list`, `memory status`) opens Memory without paying for it.
   */
  private loadWorker(): Promise<MemoryWorker> {
    this.workerLoad ??= import('./pipeline/worker.js').then(({ MemoryWorker }) => {
      const worker = new MemoryWorker({
        conn: () => this.healthyConn(),
        llm: this.options.llm,
        now: this.now,
        ids: this.ids,
        owner: this.owner,
        jobLeaseMs: this.options.jobLeaseMs ?? DEFAULT_JOB_LEASE_MS,
        requestTimeoutMs: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        recover: () => this.recover(),
      });
      this.worker = worker;
      if (this.workerWanted) worker.start();
      return worker;
    });
    return this.workerLoad;
  }

  /** Health, counts and errors. Works while degraded. */
  status(): MemoryStatus {
    const conn = this.anyConn();
    const degradedReason = this.state.health === 'degraded' ? this.state.reason : null;
    const tick = this.worker?.lastTickError ?? null;
    const backgroundError = tick === null ? null : describeError(tick);
    return readStatus(conn, { dbPath: this.dbPath, degradedReason, warnings: this.warnings, backgroundError });
  }

  /**
   * M-9.4a: puts failed jobs back in the queue with a fresh run of tries — one job (id or unique prefix of
   * at least 4 characters) or, without an id, all of them.
   */
  retry(jobId?: string): RetryResult {
    const conn = this.healthyConn();
    const wanted = jobId === undefined ? null : jobId.trim();
    if (wanted !== null && wanted.length === 0) throw new MemoryNotFoundError('', 'No job id given');
    const jobIds = retryFailedJobs(conn, wanted, this.now());
    if (wanted !== null && jobIds.length === 0) {
      throw new MemoryNotFoundError(wanted, `No failed job matches '${wanted}' (memory status lists them)`);
    }
    if (jobIds.length > 0) this.worker?.wake();
    return { jobIds };
  }

  /** M-3.2: stores the RAW user text and the owner lease before any model call; binds the request to the active thread. */
  beginTurn(input: { intent: OrdinaryIntent; userText: string; scopePaths?: string[] }): TurnHandle {
    if (!isOrdinaryIntent(input.intent)) throw new MemoryIntentError(String(input.intent));
    const conn = this.healthyConn();
    const now = this.now();
    const handle = admitTurn(conn, {
      turnId: this.ids('turn'),
      intent: input.intent,
      userText: input.userText,
      scopePaths: input.scopePaths ?? [],
      owner: this.owner,
      leaseExpiresAt: now + this.turnLeaseMs,
      now,
    });
    this.trackOpenTurn(handle.turnId);
    return handle;
  }

  /** Stores the final assistant text the user saw and queues the turn's extraction job. */
  completeTurn(handle: TurnHandle, assistantText: string): TurnRecord {
    return this.finish(handle, 'completed', assistantText, null);
  }

  /** Marks the turn failed (the RAW user text stays) and queues its extraction job. */
  failTurn(handle: TurnHandle, error?: unknown): TurnRecord {
    const failure = error === undefined ? 'failed' : clip(describeError(error), 2000);
    return this.finish(handle, 'failed', null, failure);
  }

  private finish(handle: TurnHandle, state: 'completed' | 'failed', assistantText: string | null, failure: string | null): TurnRecord {
    const conn = this.healthyConn();
    try {
      const turn = finishTurn(conn, { handle, owner: this.owner, state, assistantText, failure, jobId: this.ids('job'), now: this.now() });
      this.worker?.wake();
      return turn;
    } finally {
      this.untrackOpenTurn(handle.turnId);
    }
  }

  private trackOpenTurn(turnId: string): void {
    this.openTurns.add(turnId);
    if (this.heartbeatTimer) return;
    this.heartbeatTimer = setInterval(() => this.heartbeat(), Math.max(1000, Math.floor(this.turnLeaseMs / 3)));
    this.heartbeatTimer.unref();
  }

  private untrackOpenTurn(turnId: string): void {
    this.openTurns.delete(turnId);
    if (this.openTurns.size === 0 && this.heartbeatTimer) {
      clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = undefined;
    }
  }

  /** Keeps this manager's open turns alive (M-9.1). Public so tools and tests can drive it. */
  heartbeat(): number {
    if (this.state.health !== 'healthy' || this.openTurns.size === 0) return 0;
    const now = this.now();
    try {
      return heartbeatTurns(this.state.conn, this.owner, [...this.openTurns], now + this.turnLeaseMs, now);
    } catch {
      // A busy database delays one heartbeat; the lease is long enough to survive it.
      return 0;
    }
  }

  /** The bound thread's recent completed turns, bounded, oldest first, never the handle's own (M-8.1). */
  history(handle: TurnHandle): ChatMessage[] {
    return history(this.healthyConn(), handle);
  }

  /** The bounded Memory routing context, or '' when there is nothing to say (M-8.2). */
  routingContext(handle: TurnHandle): string {
    return routingContext(this.healthyConn(), handle);
  }

  /** At most 5 hits in at most three statements (M-7.4). */
  search(handle: TurnHandle, query: string): SearchHit[] {
    return searchMemory(this.healthyConn(), handle.threadId, query);
  }

  /** Bounded detail and provenance of a usable memory (M-7.6). */
  read(handle: TurnHandle, memoryId: string): MemoryDetail {
    return readMemory(this.healthyConn(), handle.threadId, memoryId);
  }

  /** The usable derived memories: active preferences, decisions and the active thread's discussions. */
  list(): MemoryItemSummary[] {
    const conn = this.healthyConn();
    return conn.read(() => listActiveItems(conn, requireActiveThread(conn).id));
  }

  /** One memory with its revisions and sources, whatever its status. Works while degraded. */
  show(memoryId: string): MemoryDetail {
    const conn = this.anyConn();
    if (!conn) throw new MemorySchemaError(this.state.health === 'degraded' ? this.state.reason : 'closed');
    return showMemory(conn, memoryId);
  }

  /** M-6.3: the item leaves routing and search at once and its candidates are suppressed; RAW turns stay. */
  forget(memoryId: string): ForgetResult {
    const conn = this.healthyConn();
    const id = resolveItemId(conn, memoryId);
    return forgetItem(conn, id, this.now());
  }

  /** `/new` (M-3.4): one chance for the old thread's pending jobs, then archive it and start a new thread. */
  async newThread(): Promise<NewThreadResult> {
    const conn = this.healthyConn();
    const old = requireActiveThread(conn);
    const drain = await (await this.loadWorker()).drain({ threadId: old.id });
    const { archived, created } = archiveAndCreateThread(this.healthyConn(), this.ids('thread'), this.now());
    return { archivedThreadId: archived, threadId: created, drain };
  }

  /**
   * `/memory clear --confirm` (M-10.3): fences old workers, deletes all Memory data and creates one meta row
   * and one empty active thread. Works while degraded; a database whose schema itself is broken is deleted
   * and created again. Exports and CLI history are kept.
   */
  clear(): ClearResult {
    const conn = this.anyConn();
    const now = this.now();
    const basis = readClearBasis(conn);
    const generation = basis.oldGeneration + 1;
    const createdAt = basis.createdAt ?? now;
    const inPlace = conn !== null && isSoundSchema(conn);
    const threadId = this.ids('thread');
    if (inPlace && conn) {
      clearInPlace(conn, { generation, createdAt, threadId, now });
      if (this.state.health === 'degraded') {
        conn.close();
        this.reopen({ generation, createdAt });
      }
    } else {
      conn?.close();
      removeDatabaseFiles(this.dbPath);
      this.reopen({ generation, createdAt });
    }
    const status = this.status();
    if (status.health !== 'healthy' || status.activeThreadId === null) {
      throw new MemoryStorageError(`clear could not create a healthy Memory: ${status.degradedReason ?? 'no active thread'}`);
    }
    return { generation, threadId: status.activeThreadId, recreated: !inPlace, createdAt };
  }

  private reopen(seed: { generation: number; createdAt: number }): void {
    const opened = this.bootstrapState(seed);
    this.state = opened.state;
    this.warnings = opened.warnings;
  }

  /** `/memory export` (M-10.4): a new RAW JSON snapshot under `.autopatch-j/exports/`. Works while degraded. */
  export(): ExportResult {
    const conn = this.anyConn();
    const now = this.now();
    const degradedReason = this.state.health === 'degraded' ? this.state.reason : null;
    let snapshot: ExportSnapshot;
    try {
      if (!conn) throw new MemoryStorageError(degradedReason ?? 'no database');
      snapshot = readSnapshot(conn, degradedReason ? 'degraded' : 'healthy', degradedReason, now);
    } catch (error) {
      // SQLite cannot read the file at all (not a database, …): keep its bytes instead.
      if (!degradedReason || !existsSync(this.dbPath)) throw error;
      snapshot = unreadableSnapshot(this.dbPath, degradedReason, now);
    }
    const path = writeExportFile(join(dataDir(this.repoRoot), 'exports'), snapshot, now);
    const turns = snapshot.tables['turns'];
    const items = snapshot.tables['memory_items'];
    return {
      path,
      turns: Array.isArray(turns) ? turns.length : 0,
      items: Array.isArray(items) ? items.length : 0,
      rawBytesOnly: snapshot.unreadableFile !== undefined,
    };
  }

  /** Runs due jobs now (tests and tools); `force` ignores the 2-turn / 30-second wait. */
  async processDue(options: { force?: boolean } = {}): Promise<ProcessResult> {
    this.healthyConn();
    return (await this.loadWorker()).processDue({ force: options.force ?? false });
  }

  /** Starts background scheduling and heartbeats (M-5.1, M-9.3). */
  start(): void {
    this.healthyConn();
    this.workerWanted = true;
    if (this.worker) this.worker.start();
    else void this.loadWorker();
  }

  /** Stops background work; with `drain`, runs the exit pass first (M-10.2). */
  async close(options: { drain?: boolean } = {}): Promise<DrainResult> {
    let result: DrainResult = { attempted: 0, succeeded: 0, retried: 0, failed: 0, warnings: [] };
    if (this.state.health === 'closed') return result;
    this.workerWanted = false;
    this.worker?.stop();
    if (options.drain && this.state.health === 'healthy' && this.options.llm) result = await (await this.loadWorker()).drain({ threadId: null });
    if (this.workerLoad) {
      const worker = await this.workerLoad;
      worker.stop();
      await worker.idle();
    }
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    // Another call (a concurrent close) may have changed the state while the drain ran.
    const state = this.state as State;
    if (state.health !== 'closed') state.conn?.close();
    this.state = { health: 'closed' };
    return result;
  }
}

/** True when the schema is sound, so a clear can empty the database in place. */
function isSoundSchema(conn: Connection): boolean {
  try {
    const problem = bootstrapProblem(conn);
    return problem === null || problem.dataOnly;
  } catch {
    return false;
  }
}
