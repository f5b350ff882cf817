import { MEMORY_REQUEST_TIMEOUT_MS } from '../config/config.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LlmClient } from '../llm/types.js';
import { type Clock, systemClock } from '../shared/clock.js';
import {
  MemoryClosedError,
  MemoryIntentError,
  MemoryNotFoundError,
  MemoryProvenanceError,
  MemorySchemaError,
  MemoryStorageError,
  MemoryUsageError,
  describeError,
} from '../shared/errors.js';
import { type IdGenerator, randomIds } from '../shared/ids.js';
import { clip } from '../shared/text.js';
import { recordCleanClose } from './lifecycle/clean-close.js';
import { bootstrap, buildFreshDatabase } from './lifecycle/bootstrap.js';
import { bootstrapProblem } from './lifecycle/verify.js';
import { dataDir, exportsDir, memoryDbPath } from './paths.js';
import { clearInPlace, holdWriteLock, readClearBasis, replaceDamagedDatabase } from './lifecycle/clear.js';
import { BUSY_TIMEOUT_MS, Connection } from './db/connection.js';
import { termsCurrent } from './db/term-format.js';
import { isDamage, typedStorageError } from './db/storage-fault.js';
import { streamSnapshot, streamUnreadable, writeExportFile } from './lifecycle/export.js';
import { type CheckedExport, checkExport, refuseNonEmpty, restoreInto } from './lifecycle/import.js';
import type { MemoryWorker } from './pipeline/worker.js';
import {
  REMEMBER_TEXT_LIMIT,
  type RememberKind,
  keepAnswer,
  readRememberAct,
  rememberAnswer,
  rememberCommandText,
} from './remember-command.js';
import { readMemory, showMemory } from './retrieval/read.js';
import { history, routingContext, routingItems } from './retrieval/projection.js';
import { searchMemory } from './retrieval/search.js';
import { forgetItem, indexActiveItems, listActiveItems, resolveItemId } from './store/items.js';
import { countOpenJobs, openJobsOfTurns, reclaimExpiredJobs, retryFailedJobs } from './store/jobs.js';
import {
  DEFAULT_JOB_LEASE_MS,
  DEFAULT_TURN_LEASE_MS,
  goneLeases,
  hasExpiredLeases,
  heartbeatInterval,
  leaseOwnerName,
} from './store/leases.js';
import { recentRefusals, recentSuggestions } from './store/refusals.js';
import { reindexTerms } from './store/reindex.js';
import { archiveAndCreateThread, requireActiveThread } from './store/threads.js';
import { admitTurn, finishTurn, heartbeatTurns, recoverExpiredTurns } from './store/turns.js';
import { readStatus } from './retrieval/status.js';
import { byTime, itemChangesSince, suggestionChangesSince } from './store/changes.js';
import { type TurnOutcome, candidateOutcome, turnOutcome } from './store/turn-outcome.js';
import { dismissHeldEntry, findHeldEntry, recordKeep, resolveHeldId } from './store/held.js';
import type {
  ChatMessage,
  ClearResult,
  DrainResult,
  ExportResult,
  ForgetResult,
  KeepResult,
  ImportResult,
  MemoryDetail,
  MemoryHealth,
  MemoryChange,
  MemoryItemSummary,
  MemoryStatus,
  NewThreadResult,
  OpenJobCounts,
  OrdinaryIntent,
  ProcessResult,
  RefusedCandidate,
  RememberResult,
  SuggestedCandidate,
  RetryResult,
  RoutedItem,
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
  // `untrusted`: the data folder is not the user's own (issue "Safe hands", item 2); nothing in it is touched.
  | { health: 'degraded'; reason: string; conn: Connection | null; untrusted?: boolean }
  | { health: 'closed' };

const DEFAULT_REQUEST_TIMEOUT_MS = MEMORY_REQUEST_TIMEOUT_MS;

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
  private notices: string[] = [];
  private readonly now: Clock;
  private readonly ids: IdGenerator;
  private ownerName: string | undefined;
  private readonly turnLeaseMs: number;
  private readonly jobLeaseMs: number;
  /** Jobs this manager took back from processes that had died holding them (issue "Safe hands", item 6). */
  private reclaimedFromGone = 0;
  private readonly gonePids = new Set<number>();
  private readonly openTurns = new Set<string>();
  /** Every turn this manager admitted: the exit pass serves their jobs first. */
  private readonly ownTurns = new Set<string>();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** Loaded on first use (see loadWorker). */
  private worker: MemoryWorker | null = null;
  private workerLoad: Promise<MemoryWorker> | null = null;
  private workerWanted = false;
  private recoveryDeferred = false;
  // The search-term rows were written by an older format: they are written again with the startup recovery.
  private reindexDue = false;
  /** Set when a healthy session met damage: its close must not stamp the file as verified (M-2.2). */
  private damageSeen = false;

  private constructor(private readonly options: MemoryManagerOptions) {
    this.repoRoot = options.repoRoot;
    this.dbPath = memoryDbPath(options.repoRoot);
    this.now = options.now ?? systemClock;
    this.ids = options.ids ?? randomIds;
    this.turnLeaseMs = options.turnLeaseMs ?? DEFAULT_TURN_LEASE_MS;
    this.jobLeaseMs = options.jobLeaseMs ?? DEFAULT_JOB_LEASE_MS;
    const opened = this.bootstrapState();
    this.state = opened.state;
    this.warnings = opened.warnings;
    this.notices = opened.notices;
    if (this.state.health === 'healthy') this.recoverAtStartup(this.state.conn);
  }

  /** Owner name written into leases, made on first use: a read-only command never needs one. */
  private get owner(): string {
    this.ownerName ??= this.options.workerId ?? leaseOwnerName(this.ids('worker'));
    return this.ownerName;
  }

  /**
   * M-10.1 without waiting on anyone: a read decides whether anything expired (usually nothing, so a
   * read-only command never writes); if so, recovery is tried once without waiting for the write lock. A
   * busy database defers it to the first write (the worker recovers before it claims).
   */
  private recoverAtStartup(conn: Connection): void {
    try {
      if (!termsCurrent(conn)) this.reindexDue = true;
      if (!this.reindexDue && !hasExpiredLeases(conn, this.now(), { turnLeaseMs: this.turnLeaseMs, jobLeaseMs: this.jobLeaseMs })) return;
      conn.db.pragma('busy_timeout = 0');
      try {
        this.recover();
      } finally {
        conn.db.pragma(`busy_timeout = ${this.options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
      }
    } catch (error) {
      this.recoveryDeferred = true;
      this.warnings.push(`startup recovery deferred: ${describeError(error)}`);
    }
  }

  /** Runs a deferred startup recovery before this process's first write. */
  private recoverIfDeferred(): void {
    if (!this.recoveryDeferred) return;
    this.recover();
    this.recoveryDeferred = false;
  }

  /**
   * Every public method runs through here so SQLite and file-system failures leave as typed errors
   * (M-2.7): MemoryStorageError with cause and fix, MemorySchemaError for damage SQLite found.
   */
  private guard<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      const typed = typedStorageError(error, what, dirname(this.dbPath));
      if (typed instanceof MemorySchemaError || isDamage(error)) this.damageSeen = true;
      throw typed;
    }
  }

  private async guardAsync<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const typed = typedStorageError(error, what, dirname(this.dbPath));
      if (typed instanceof MemorySchemaError || isDamage(error)) this.damageSeen = true;
      throw typed;
    }
  }

  /**
   * Opens (creating or verifying) the Memory of a project. Never throws for a degraded database (one SQLite
   * read and found unsound); throws MemoryStorageError when the files cannot be reached — permissions, a
   * full disk, a lock held too long, a read-only folder, a symbolic link — with the cause and the fix.
   */
  static open(options: MemoryManagerOptions): MemoryManager {
    return new MemoryManager(options);
  }

  private bootstrapState(seed?: { generation: number; createdAt: number }): { state: State; warnings: string[]; notices: string[] } {
    const result = bootstrap(this.dbPath, this.now(), this.ids, seed, { busyTimeoutMs: this.options.busyTimeoutMs });
    const notices = result.notices ?? [];
    if (result.state === 'healthy') return { state: { health: 'healthy', conn: result.conn }, warnings: result.warnings, notices };
    return {
      state: { health: 'degraded', reason: result.reason, conn: result.conn, ...(result.untrusted ? { untrusted: true } : {}) },
      warnings: result.warnings,
      notices,
    };
  }

  /**
   * What a person should hear when Memory opens: a clear a crash interrupted and this start finished, with
   * where the damaged database is now (status keeps it among its warnings). Reads nothing.
   */
  startupNotices(): string[] {
    return [...this.notices];
  }

  /**
   * M-10.1: expired open turns become interrupted (with their jobs); expired job leases are reclaimed. A
   * database whose search terms an older version wrote gets them written again first (once, see reindex.ts).
   */
  private recover(): void {
    const conn = this.healthyConn();
    if (this.reindexDue) {
      reindexTerms(conn);
      this.reindexDue = false;
    }
    const now = this.now();
    const gone = goneLeases(conn);
    recoverExpiredTurns(conn, { now, leaseMs: Math.max(this.turnLeaseMs, DEFAULT_TURN_LEASE_MS), goneAtOnce: false }, () =>
      this.ids('job'),
    );
    const reclaimed = reclaimExpiredJobs(conn, { now, leaseMs: Math.max(this.jobLeaseMs, DEFAULT_JOB_LEASE_MS), goneAtOnce: true });
    if (gone.jobs > 0 && reclaimed.length > 0) {
      const n = Math.min(gone.jobs, reclaimed.length);
      this.reclaimedFromGone += n;
      for (const pid of gone.pids) this.gonePids.add(pid);
      this.warnings.push(
        `${n} memory job${n === 1 ? '' : 's'} held by process ${gone.pids.join(', ')}, which had ended, ` +
          `${n === 1 ? 'was' : 'were'} put back in the queue`,
      );
    }
    this.recoveryDeferred = false;
  }

  /** The operational guard (M-2.4). */
  private healthyConn(): Connection {
    if (this.state.health === 'healthy') return this.state.conn;
    if (this.state.health === 'closed') throw new MemoryClosedError('Memory is closed');
    throw new MemorySchemaError(this.state.reason);
  }

  /** Clear and export never write into, or read from, a data folder that is not the user's own. */
  private refuseUntrusted(what: 'clear' | 'export'): void {
    if (this.state.health === 'degraded' && this.state.untrusted)
      throw new MemorySchemaError(`${this.state.reason} (${what} does not touch it)`);
  }

  /** A connection for the diagnostic paths that bypass the guard (status, show, export, clear). */
  private anyConn(): Connection | null {
    if (this.state.health === 'closed') throw new MemoryClosedError('Memory is closed');
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
        jobLeaseMs: this.jobLeaseMs,
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
    return this.guard('cannot read Memory status', () => {
      const conn = this.anyConn();
      const degradedReason = this.state.health === 'degraded' ? this.state.reason : null;
      const tick = this.worker?.lastTickError ?? null;
      const backgroundError = tick === null ? null : describeError(tick);
      return readStatus(conn, { dbPath: this.dbPath, degradedReason, warnings: this.warnings, backgroundError });
    });
  }

  /**
   * Health as this manager knows it, without reading the database: what a session decides at start-up.
   * `status()` is the full report, and counts every table.
   */
  health(): MemoryHealth {
    if (this.state.health === 'degraded') return { health: 'degraded', degradedReason: this.state.reason };
    return { health: this.state.health, degradedReason: null };
  }

  /**
   * Unfinished jobs by state (index-only, cheap at any size). While degraded, what the verified snapshot can
   * still say, like `status()`; all zero when nothing can be read.
   */
  openJobs(): OpenJobCounts {
    return this.guard('cannot read Memory jobs', () => {
      const conn = this.anyConn();
      if (this.state.health === 'healthy' && conn) return conn.read(() => countOpenJobs(conn));
      try {
        return conn ? countOpenJobs(conn) : { pending: 0, leased: 0, retryWait: 0, failed: 0 };
      } catch {
        return { pending: 0, leased: 0, retryWait: 0, failed: 0 };
      }
    });
  }

  /**
   * M-9.4a: puts failed jobs back in the queue with a fresh run of tries — one job (id or unique prefix of
   * at least 4 characters) or, without an id, all of them.
   */
  retry(jobId?: string): RetryResult {
    return this.guard('cannot retry jobs', () => {
      const conn = this.healthyConn();
      this.recoverIfDeferred();
      const wanted = jobId === undefined ? null : jobId.trim();
      if (wanted !== null && wanted.length === 0) throw new MemoryNotFoundError('', 'No job id given');
      const jobIds = retryFailedJobs(conn, wanted, this.now());
      if (wanted !== null && jobIds.length === 0) {
        throw new MemoryNotFoundError(wanted, `No failed job matches '${wanted}' (memory status lists them)`);
      }
      if (jobIds.length > 0) this.worker?.wake();
      return { jobIds };
    });
  }

  /** M-3.2: stores the RAW user text and the owner lease before any model call; binds the request to the active thread. */
  beginTurn(input: { intent: OrdinaryIntent; userText: string; scopePaths?: string[] }): TurnHandle {
    if (!isOrdinaryIntent(input.intent)) throw new MemoryIntentError(String(input.intent));
    return this.guard('cannot store the turn', () => {
      const conn = this.healthyConn();
      this.recoverIfDeferred();
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
      this.ownTurns.add(handle.turnId);
      return handle;
    });
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
    return this.guard('cannot store the answer', () => {
      const conn = this.healthyConn();
      try {
        const turn = finishTurn(conn, {
          handle,
          owner: this.owner,
          state,
          assistantText,
          failure,
          jobId: this.ids('job'),
          now: this.now(),
        });
        this.worker?.wake();
        return turn;
      } finally {
        this.untrackOpenTurn(handle.turnId);
      }
    });
  }

  private trackOpenTurn(turnId: string): void {
    this.openTurns.add(turnId);
    if (this.heartbeatTimer) return;
    this.heartbeatTimer = setInterval(() => this.heartbeat(), heartbeatInterval(this.turnLeaseMs));
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
    return this.guard('cannot read the conversation history', () => history(this.healthyConn(), handle));
  }

  /** The bounded Memory routing context, or '' when there is nothing to say (M-8.2). */
  routingContext(handle: TurnHandle): string {
    return this.guard('cannot read the routing context', () => routingContext(this.healthyConn(), handle));
  }

  /** The items the routing context of this request shows, in its order (M-8.3: chosen by relevance, then recency). */
  routingItems(handle: TurnHandle): RoutedItem[] {
    return this.guard('cannot read the routing context', () => routingItems(this.healthyConn(), handle));
  }

  /**
   * A read-only binding to the thread active at this moment, for callers that serve requests without a turn
   * of their own (the MCP server). Search, read and the routing context use its thread; it owns no turn.
   */
  bindActiveThread(): TurnHandle {
    const conn = this.healthyConn();
    return { turnId: '', threadId: requireActiveThread(conn).id, sequence: Number.MAX_SAFE_INTEGER };
  }

  /** At most 5 hits in at most three statements (M-7.4). */
  search(handle: TurnHandle, query: string): SearchHit[] {
    return this.guard('cannot search Memory', () => searchMemory(this.healthyConn(), handle.threadId, query));
  }

  /** Bounded detail and provenance of a usable memory (M-7.6). */
  read(handle: TurnHandle, memoryId: string): MemoryDetail {
    return this.guard('cannot read the memory', () => readMemory(this.healthyConn(), handle.threadId, memoryId));
  }

  /** The usable derived memories: active preferences, decisions and the active thread's discussions. */
  list(): MemoryItemSummary[] {
    return this.guard('cannot list memories', () => {
      const conn = this.healthyConn();
      return conn.read(() => listActiveItems(conn, requireActiveThread(conn).id));
    });
  }

  /** One memory with its revisions and sources, whatever its status. Works while degraded. */
  show(memoryId: string): MemoryDetail {
    return this.guard('cannot read the memory', () => {
      const conn = this.anyConn();
      if (!conn) throw new MemorySchemaError(this.state.health === 'degraded' ? this.state.reason : 'closed');
      return showMemory(conn, memoryId);
    });
  }

  /** M-6.3: the item leaves routing and search at once and its candidates are suppressed; RAW turns stay. */
  forget(memoryId: string): ForgetResult {
    return this.guard('cannot forget the memory', () => {
      const conn = this.healthyConn();
      this.recoverIfDeferred();
      const id = resolveItemId(conn, memoryId);
      return forgetItem(conn, id, this.now());
    });
  }

  /** `/new` (M-3.4): one chance for the old thread's pending jobs, then archive it and start a new thread. */
  async newThread(): Promise<NewThreadResult> {
    return this.guardAsync('cannot start a new thread', async () => {
      const conn = this.healthyConn();
      this.recoverIfDeferred();
      const old = requireActiveThread(conn);
      const drain = await (await this.loadWorker()).drain({ threadId: old.id });
      const { archived, created } = archiveAndCreateThread(this.healthyConn(), this.ids('thread'), this.now());
      return { archivedThreadId: archived, threadId: created, drain };
    });
  }

  /**
   * `/memory clear --confirm` (M-10.3): fences old workers, deletes all Memory data and creates one meta row
   * and one empty active thread. Works while degraded. A database whose schema itself is broken is never
   * deleted: a new one is built in a temp file and renamed over it, and the damaged file is moved to
   * `memory.db.damaged-<timestamp>` (`movedAside`). A database that cannot be reached never gets here:
   * opening it failed with MemoryStorageError. Exports and CLI history are kept.
   */
  clear(): ClearResult {
    return this.guard('clear failed', () => {
      this.refuseUntrusted('clear');
      const conn = this.anyConn();
      const now = this.now();
      const basis = readClearBasis(conn);
      // A crafted database may hold the largest safe generation: the next one stays a safe integer.
      const generation = Math.min(basis.oldGeneration + 1, Number.MAX_SAFE_INTEGER);
      const createdAt = basis.createdAt ?? now;
      const threadId = this.ids('thread');
      if (this.state.health === 'healthy' && conn) {
        clearInPlace(conn, { generation, createdAt, threadId, now });
        return this.clearResult(generation, createdAt, false, null);
      }
      // Degraded: the connection is a read-only snapshot. Rows-only damage is emptied in place through a
      // read-write connection; a broken schema or an unreadable file is replaced and kept aside.
      const dataOnly = conn !== null && isSoundSchema(conn);
      conn?.close();
      this.state = { health: 'degraded', reason: this.state.health === 'degraded' ? this.state.reason : 'closed', conn: null };
      let movedAside: string | null = null;
      let recreated = false;
      try {
        if (!dataOnly || !this.clearDataOnlyInPlace({ generation, createdAt, threadId, now })) {
          movedAside = replaceDamagedDatabase(
            this.dbPath,
            now,
            (temp) => buildFreshDatabase(temp, now, this.ids, { generation, createdAt }),
            // A live session (WAL mode) always has a -shm file; without one there is no writer to wait for.
            () => (existsSync(`${this.dbPath}-shm`) ? holdWriteLock(this.dbPath, this.options.busyTimeoutMs) : null),
          );
          recreated = true;
        }
      } catch (error) {
        // The old files are unchanged: look at them again so status keeps explaining them.
        try {
          this.reopen();
        } catch {
          // Reported through the clear's own error below.
        }
        throw error;
      }
      this.reopen({ generation, createdAt });
      return this.clearResult(generation, createdAt, recreated, movedAside);
    });
  }

  /** Empties a database whose schema is sound in place; false when it is not sound after all. */
  private clearDataOnlyInPlace(input: { generation: number; createdAt: number; threadId: string; now: number }): boolean {
    const rw = Connection.open(this.dbPath, { fileMustExist: true, busyTimeoutMs: this.options.busyTimeoutMs });
    try {
      rw.pinFile(this.dbPath);
      if (!isSoundSchema(rw)) return false;
      clearInPlace(rw, input);
      return true;
    } finally {
      rw.close();
    }
  }

  private clearResult(generation: number, createdAt: number, recreated: boolean, movedAside: string | null): ClearResult {
    const status = this.status();
    if (status.health !== 'healthy' || status.activeThreadId === null) {
      throw new MemoryStorageError(`clear could not create a healthy Memory: ${status.degradedReason ?? 'no active thread'}`);
    }
    return { generation, threadId: status.activeThreadId, recreated, createdAt, movedAside };
  }

  private reopen(seed?: { generation: number; createdAt: number }): void {
    const opened = this.bootstrapState(seed);
    this.state = opened.state;
    this.warnings = opened.warnings;
  }

  /** `/memory export` (M-10.4): a new RAW JSON snapshot under `.autopatch-j/exports/`. Works while degraded. */
  export(): ExportResult {
    return this.guard('export failed', () => {
      this.refuseUntrusted('export');
      const conn = this.anyConn();
      const now = this.now();
      const degradedReason = this.state.health === 'degraded' ? this.state.reason : null;
      const exportDir = exportsDir(this.repoRoot);
      if (conn) {
        try {
          const { path, result } = writeExportFile(exportDir, now, (sink) =>
            streamSnapshot(sink, conn, degradedReason ? 'degraded' : 'healthy', degradedReason, now),
          );
          return { path, ...result };
        } catch (error) {
          if (!degradedReason || !(error instanceof MemorySchemaError || isDamage(error))) throw error;
        }
      }
      // SQLite cannot read the file at all (not a database, …): keep its bytes instead.
      if (!degradedReason || !existsSync(this.dbPath)) throw new MemoryStorageError(`export failed: ${degradedReason ?? 'no database'}`);
      const { path, result } = writeExportFile(exportDir, now, (sink) => streamUnreadable(sink, this.dbPath, degradedReason, now));
      return { path, ...result };
    });
  }

  /**
   * Checks an export file against the contract without opening any Memory (`memory import` runs it before
   * an absent Memory is created). The caller disposes of the result. Every active memory of the export must
   * pass the pipeline's evidence check (M-6.4), loaded here on first use like the worker.
   */
  static async checkExportFile(options: { repoRoot: string; file: string }): Promise<CheckedExport> {
    const { unbackedRevision } = await import('./pipeline/consolidation.js');
    return checkExport(options.file, {
      repoRoot: options.repoRoot,
      dataDir: dataDir(options.repoRoot),
      index: indexActiveItems,
      unbacked: unbackedRevision,
    });
  }

  /**
   * `memory import FILE`: restores a RAW export into this Memory, which must be healthy and empty (no turns,
   * jobs, candidates or items), in one transaction with a new generation; refusals (MemoryImportError)
   * change nothing. Takes a path, or what `checkExportFile` returned (then the caller disposes of it).
   */
  async restore(source: string | CheckedExport): Promise<ImportResult> {
    const what = 'import failed (nothing was changed)';
    // A Memory that is not empty is refused before the file is read (the transaction checks again).
    this.guard(what, () => {
      const conn = this.healthyConn();
      conn.read(() => refuseNonEmpty(conn));
    });
    const checked =
      typeof source === 'string'
        ? await this.guardAsync(what, () => MemoryManager.checkExportFile({ repoRoot: this.repoRoot, file: source }))
        : source;
    try {
      return this.guard(what, () => {
        const restored = restoreInto(this.healthyConn(), checked, this.now());
        this.worker?.wake();
        return { file: checked.file, exportedAt: checked.exportedAt, fromDegraded: checked.fromDegraded, ...restored };
      });
    } finally {
      if (typeof source === 'string') checked.dispose();
    }
  }

  /** Recent candidates the program refused, newest first, with their clipped quote and reason (M-5.4). */
  refused(options: { limit?: number } = {}): RefusedCandidate[] {
    const conn = this.healthyConn();
    const limit = Math.max(1, Math.min(1000, Math.floor(options.limit ?? 20)));
    return conn.read(() => recentRefusals(conn, limit));
  }

  /**
   * M-11.2: what the background Memory did since `since` (epoch ms, inclusive), oldest first: items created,
   * revised or made by a supersede (repo preferences and decisions, the active thread's discussions), and
   * candidates held as suggestions (their id is what `keep` and `dismiss` take).
   */
  changes(options: { since: number }): MemoryChange[] {
    return this.guard('cannot read Memory changes', () => {
      const conn = this.healthyConn();
      return conn
        .read(() => {
          const thread = requireActiveThread(conn).id;
          return [...itemChangesSince(conn, options.since, thread), ...suggestionChangesSince(conn, options.since, thread)];
        })
        .sort(byTime);
    });
  }

  /**
   * M-5.7 `/remember`: the user's words are admitted as an ordinary turn whose RAW text is the command as
   * typed (`typed`, else `/remember [--decision] TEXT`), answered by the program's own line (no main model
   * call), and the turn's extraction runs at once — with its consolidation, so the memory exists when this
   * resolves. For the gate the command is a standing act of the user; who speaks is still checked. Without
   * a model the turn waits in the queue like any other (`outcome: 'queued'`).
   */
  async remember(input: { text: string; kind?: RememberKind; typed?: string }): Promise<RememberResult> {
    const kind = input.kind ?? 'user_preference';
    if (kind !== 'user_preference' && kind !== 'project_decision') {
      throw new MemoryUsageError(`remember keeps a user_preference or a project_decision, not '${String(kind)}'`);
    }
    const text = typeof input.text === 'string' ? input.text.trim() : '';
    if (text.length === 0) throw new MemoryUsageError('Nothing to remember: the text is empty');
    const length = Array.from(text).length;
    if (length > REMEMBER_TEXT_LIMIT) {
      throw new MemoryUsageError(`The text to remember has ${length} characters; at most ${REMEMBER_TEXT_LIMIT} fit one quote`);
    }
    const typed = input.typed ?? rememberCommandText(text, kind);
    const act = readRememberAct(typed);
    if (!act || act.kind !== kind || act.text.trim() !== text) {
      throw new MemoryUsageError('`typed` must be the remember command with the same text and kind');
    }
    return this.guardAsync('cannot remember', async () => {
      const handle = this.beginTurn({ intent: 'general_chat', userText: typed });
      this.completeTurn(handle, rememberAnswer(kind));
      if (this.options.llm) {
        const worker = await this.loadWorker();
        // A background batch that already holds the turn finishes first; then the thread's jobs get their chance.
        await worker.idle();
        await worker.drain({ threadId: handle.threadId });
        await worker.idle();
      }
      const conn = this.healthyConn();
      const outcome = conn.read(() => turnOutcome(conn, handle.turnId, kind));
      return { turnId: handle.turnId, kind, ...outcomeFields(outcome, this.options.llm !== undefined) };
    });
  }

  /**
   * M-5.7 `keep`: makes a suggestion, or a refusal of the reading, a memory. Its quotes are verified against
   * the RAW turns again; the user's act is recorded as an ordinary turn (`typed`, else `/memory keep ID`)
   * whose extraction carries the candidate with its original quotes, and its consolidation runs at once
   * (M-6.x checks included). A provenance refusal throws MemoryProvenanceError and writes nothing; keeping
   * twice returns the first keep (`alreadyKept`). `candidateId` is the full id or its short name.
   */
  async keep(candidateId: string, options: { typed?: string } = {}): Promise<KeepResult> {
    return this.guardAsync('cannot keep the candidate', async () => {
      const conn = this.healthyConn();
      this.recoverIfDeferred();
      const id = conn.read(() => resolveHeldId(conn, candidateId));
      const entry = conn.read(() => findHeldEntry(conn, id));
      if (!entry || entry.state === 'dismissed')
        throw new MemoryNotFoundError(candidateId, `No suggestion or refusal '${candidateId}' to keep`);
      const kind = entry.body?.kind ?? 'user_preference';
      const result = (turnId: string | null, keptCandidate: string | null, alreadyKept: boolean): KeepResult => {
        const outcome: TurnOutcome =
          keptCandidate === null ? { state: 'refused', reason: 'unknown' } : conn.read(() => candidateOutcome(conn, keptCandidate));
        return { candidateId: id, turnId, kind, alreadyKept, ...outcomeFields(outcome, this.options.llm !== undefined) };
      };
      if (entry.state === 'kept') return result(entry.keptTurnId, entry.keptCandidateId, true);
      if (!entry.keepable) {
        throw new MemoryProvenanceError(id, entry.reason, `${id} was refused for its provenance (${entry.reason}): it can never be kept`);
      }
      if (!entry.threadActive) throw new MemoryNotFoundError(candidateId, `${candidateId} belongs to a thread that was archived`);
      const { verifyHeld } = await import('./pipeline/keep.js');
      const checked = conn.read(() => verifyHeld(conn, entry));
      if (!checked.ok) {
        throw new MemoryProvenanceError(id, checked.reason, `${id} cannot be kept: ${checked.detail} (${checked.reason})`);
      }
      const recorded = recordKeep(conn, {
        entry,
        candidate: checked.candidate,
        typed: options.typed ?? `/memory keep ${candidateId.trim()}`,
        answer: keepAnswer(checked.candidate.kind),
        ids: { turn: this.ids('turn'), keepJob: this.ids('job'), candidate: this.ids('candidate'), consolidationJob: this.ids('job') },
        now: this.now(),
      });
      if (recorded.already) return result(recorded.keptTurnId, recorded.keptCandidateId, true);
      if (this.options.llm) {
        const worker = await this.loadWorker();
        await worker.idle();
        await worker.drain({ threadId: entry.threadId, only: [recorded.record.consolidationJobId] });
        await worker.idle();
      }
      return result(recorded.record.turnId, recorded.record.candidateId, false);
    });
  }

  /** M-5.7 `dismiss`: drops a suggestion (or a keepable refusal) from the lists; the RAW turns stay. Idempotent. */
  async dismiss(candidateId: string): Promise<void> {
    this.guard('cannot dismiss the candidate', () => {
      const conn = this.healthyConn();
      const id = conn.read(() => resolveHeldId(conn, candidateId));
      const entry = conn.read(() => findHeldEntry(conn, id));
      if (!entry) throw new MemoryNotFoundError(candidateId, `No suggestion or refusal '${candidateId}' to dismiss`);
      if (entry.state === 'kept') throw new MemoryNotFoundError(candidateId, `${id} was kept; /memory forget removes the memory`);
      if (!entry.keepable)
        throw new MemoryProvenanceError(id, entry.reason, `${id} is a refusal for its provenance: nothing is held to dismiss`);
      if (entry.state === null) dismissHeldEntry(conn, entry);
    });
  }

  /** Candidates the gate held for the user (M-5.7), newest first: not memories, never in routing or search. */
  suggestions(options: { limit?: number } = {}): SuggestedCandidate[] {
    const conn = this.healthyConn();
    const limit = Math.max(1, Math.min(1000, Math.floor(options.limit ?? 20)));
    return conn.read(() => recentSuggestions(conn, limit));
  }

  /**
   * Runs due jobs now (tests and tools); `force` ignores the 2-turn / 30-second wait; `maxBatches` stops after
   * that many claimed batches (benchmarks of a large backlog).
   */
  async processDue(options: { force?: boolean; maxBatches?: number } = {}): Promise<ProcessResult> {
    return this.guardAsync('cannot run Memory jobs', async () => {
      this.healthyConn();
      this.recoverIfDeferred();
      const worker = await this.loadWorker();
      if (options.maxBatches === undefined) return worker.processDue({ force: options.force ?? false });
      let batches = 0;
      return worker.processDue({ force: options.force ?? false, keepGoing: () => batches++ < options.maxBatches! });
    });
  }

  /** Starts background scheduling and heartbeats (M-5.1, M-9.3). */
  start(): void {
    this.healthyConn();
    this.workerWanted = true;
    if (this.worker) this.worker.start();
    else void this.loadWorker();
  }

  /**
   * The background job in flight (the exit pass says it waits for it, and Ctrl-C skips it), or null. Never
   * reads the database.
   */
  backgroundWork(): { kind: 'extraction' | 'consolidation'; jobs: number } | null {
    return this.worker?.busy() ?? null;
  }

  /**
   * Job leases of processes of this machine that ended holding them (issue "Safe hands", item 6): how many this
   * manager took back at start-up, and how many are still leased (a start that could not write yet). Index-only.
   */
  goneProcessLeases(): { reclaimed: number; stillLeased: number; pids: number[] } {
    let still = { jobs: 0, pids: [] as number[] };
    try {
      const conn = this.state.health === 'closed' ? null : this.state.conn;
      if (conn) still = goneLeases(conn);
    } catch {
      // A courtesy for the exit-pass line; status reports what it can read.
    }
    return {
      reclaimed: this.reclaimedFromGone,
      stillLeased: still.jobs,
      pids: [...new Set([...this.gonePids, ...still.pids])].sort((a, b) => a - b),
    };
  }

  /**
   * Stops background work; with `drain`, runs the exit pass first (M-10.2): this manager's own turns' jobs first,
   * new work claimed for at most `budgetMs` (default EXIT_PASS_BUDGET_MS, 10 s), the rest left queued.
   * `onDrained` runs after the pass while Memory is still open (to read what the pass changed); what it throws
   * is ignored.
   */
  async close(options: { drain?: boolean; budgetMs?: number; onDrained?: () => void } = {}): Promise<DrainResult> {
    let result: DrainResult = { attempted: 0, succeeded: 0, retried: 0, failed: 0, warnings: [] };
    if (this.state.health === 'closed') return result;
    this.workerWanted = false;
    this.worker?.stop();
    try {
      // The background worker first finishes the job it holds: what that job produced (a consolidation job)
      // is then pending when the exit pass takes its snapshot, instead of being left for the next process.
      if (this.workerLoad) {
        const worker = await this.workerLoad;
        worker.stop();
        await worker.idle();
      }
      if (options.drain && this.state.health === 'healthy' && this.options.llm) {
        const conn = this.state.conn;
        const first = conn.read(() => openJobsOfTurns(conn, [...this.ownTurns]));
        result = await (
          await this.loadWorker()
        ).drain({
          threadId: null,
          first,
          ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
        });
      }
      if (options.onDrained && this.state.health === 'healthy') {
        try {
          options.onDrained();
        } catch {
          // A reader's failure never stops the close.
        }
      }
    } catch (error) {
      throw typedStorageError(error, 'the exit pass could not finish (pending jobs stay queued)', dirname(this.dbPath));
    } finally {
      if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = undefined;
      // Another call (a concurrent close) may have changed the state while the drain ran.
      const state = this.state as State;
      this.state = { health: 'closed' };
      if (state.health !== 'closed') state.conn?.close();
      // A verified session that closed its last connection: the next start may skip the physical checks.
      if (state.health === 'healthy' && !this.damageSeen && !this.worker?.damageSeen) recordCleanClose(this.dbPath);
    }
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

/** A pipeline outcome as `remember` and `keep` report it. */
function outcomeFields(outcome: TurnOutcome, hasModel: boolean): Pick<RememberResult, 'outcome' | 'memory' | 'reason'> {
  if (outcome.state === 'remembered') return { outcome: 'remembered', memory: outcome.memory, reason: null };
  if (outcome.state === 'refused') return { outcome: 'refused', memory: null, reason: outcome.reason };
  const reason = !hasModel
    ? 'no model is configured'
    : outcome.lastError !== null
      ? clip(outcome.lastError.split('\n')[0]!, 200)
      : `the ${outcome.stage} waits for earlier jobs`;
  return { outcome: 'queued', memory: null, reason };
}
