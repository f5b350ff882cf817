import type { Clock } from '../../shared/clock.js';
import { describeError } from '../../shared/errors.js';
import type { IdGenerator } from '../../shared/ids.js';
import type { Connection } from '../db/connection.js';
import { termsCurrent } from '../db/term-format.js';
import { reclaimExpiredJobs } from './job-claims.js';
import { DEFAULT_JOB_LEASE_MS, DEFAULT_TURN_LEASE_MS, goneLeases, hasExpiredLeases } from './leases.js';
import { reindexTerms } from './reindex.js';
import { recoverExpiredTurns } from './turns.js';

export interface RecoveryOptions {
  now: Clock;
  ids: IdGenerator;
  turnLeaseMs: number;
  jobLeaseMs: number;
  /** The busy timeout the connection goes back to after the startup attempt. */
  busyTimeoutMs: number;
  /** Where the warnings status reports go. */
  warn: (line: string) => void;
}

/**
 * M-10.1 for one manager: expired open turns become interrupted (with their jobs), expired job leases are
 * reclaimed, and search terms an older version wrote are written again — at start-up without waiting on
 * anyone, else before this process's first write.
 */
export class Recovery {
  private deferred = false;
  // The search-term rows were written by an older format: they are written again with the startup recovery.
  private reindexDue = false;
  /** Jobs this manager took back from processes that had died holding them (issue "Safe hands", item 6). */
  private reclaimedFromGone = 0;
  private readonly gonePids = new Set<number>();

  constructor(private readonly options: RecoveryOptions) {}

  /**
   * M-10.1 without waiting on anyone: a read decides whether anything expired (usually nothing, so a
   * read-only command never writes); if so, recovery is tried once without waiting for the write lock. A
   * busy database defers it to the first write (the worker recovers before it claims).
   */
  atStartup(conn: Connection): void {
    const { turnLeaseMs, jobLeaseMs } = this.options;
    try {
      if (!termsCurrent(conn)) this.reindexDue = true;
      if (!this.reindexDue && !hasExpiredLeases(conn, this.options.now(), { turnLeaseMs, jobLeaseMs })) return;
      conn.db.pragma('busy_timeout = 0');
      try {
        this.run(conn);
      } finally {
        conn.db.pragma(`busy_timeout = ${this.options.busyTimeoutMs}`);
      }
    } catch (error) {
      this.deferred = true;
      this.options.warn(`startup recovery deferred: ${describeError(error)}`);
    }
  }

  /** Runs a deferred startup recovery before this process's first write. */
  ifDeferred(conn: Connection): void {
    if (!this.deferred) return;
    this.run(conn);
    this.deferred = false;
  }

  /**
   * M-10.1: expired open turns become interrupted (with their jobs); expired job leases are reclaimed. A
   * database whose search terms an older version wrote gets them written again first (once, see reindex.ts).
   */
  run(conn: Connection): void {
    if (this.reindexDue) {
      reindexTerms(conn);
      this.reindexDue = false;
    }
    const now = this.options.now();
    const gone = goneLeases(conn);
    recoverExpiredTurns(conn, { now, leaseMs: Math.max(this.options.turnLeaseMs, DEFAULT_TURN_LEASE_MS), goneAtOnce: false }, () =>
      this.options.ids('job'),
    );
    const reclaimed = reclaimExpiredJobs(conn, { now, leaseMs: Math.max(this.options.jobLeaseMs, DEFAULT_JOB_LEASE_MS), goneAtOnce: true });
    if (gone.jobs > 0 && reclaimed.length > 0) {
      const n = Math.min(gone.jobs, reclaimed.length);
      this.reclaimedFromGone += n;
      for (const pid of gone.pids) this.gonePids.add(pid);
      this.options.warn(
        `${n} memory job${n === 1 ? '' : 's'} held by process ${gone.pids.join(', ')}, which had ended, ` +
          `${n === 1 ? 'was' : 'were'} put back in the queue`,
      );
    }
    this.deferred = false;
  }

  /**
   * Job leases of processes of this machine that ended holding them (issue "Safe hands", item 6): how many were
   * taken back here, and how many are still leased (a start that could not write yet). Index-only; `conn` null
   * (a closed Memory) says what was taken back.
   */
  goneProcessLeases(conn: Connection | null): { reclaimed: number; stillLeased: number; pids: number[] } {
    let still = { jobs: 0, pids: [] as number[] };
    try {
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
}
