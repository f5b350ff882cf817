import type { Connection } from '../connection.js';
import type { JobCounts, JobKind, JobRecord, JobStatus } from '../types.js';
import { refreshGlobalLastError } from './meta.js';

interface JobRow {
  id: string;
  kind: JobKind;
  status: JobStatus;
  thread_id: string;
  turn_id: string | null;
  parent_job_id: string | null;
  generation: number;
  attempt_count: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  available_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

const JOB_COLUMNS =
  'id, kind, status, thread_id, turn_id, parent_job_id, generation, attempt_count, lease_owner, lease_expires_at, available_at, last_error, created_at, updated_at';

function mapJob(row: JobRow): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    threadId: row.thread_id,
    turnId: row.turn_id,
    parentJobId: row.parent_job_id,
    generation: row.generation,
    attemptCount: row.attempt_count,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    availableAt: row.available_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The one extraction job of a finished turn; the unique turn_id makes a second one impossible. */
export function insertExtractionJob(
  conn: Connection,
  input: { jobId: string; turnId: string; threadId: string; sequence: number; now: number },
): void {
  conn
    .stmt(
      `INSERT INTO memory_jobs (id, kind, status, thread_id, turn_id, turn_sequence, generation, available_at, created_at, updated_at)
       SELECT ?, 'extraction', 'pending', ?, ?, ?, generation, ?, ?, ? FROM memory_meta WHERE id = 1`,
    )
    .run(input.jobId, input.threadId, input.turnId, input.sequence, input.now, input.now, input.now);
}

/** One serialized consolidation job for the candidates of an extraction batch (M-5.4). */
export function insertConsolidationJob(
  conn: Connection,
  input: { jobId: string; parentJobId: string; threadId: string; generation: number; now: number },
): void {
  conn
    .stmt(
      `INSERT INTO memory_jobs (id, kind, status, thread_id, parent_job_id, generation, available_at, created_at, updated_at)
       VALUES (?, 'consolidation', 'pending', ?, ?, ?, ?, ?, ?)`,
    )
    .run(input.jobId, input.threadId, input.parentJobId, input.generation, input.now, input.now, input.now);
}

export function countJobs(conn: Connection): JobCounts {
  const out: JobCounts = { pending: 0, leased: 0, retryWait: 0, succeeded: 0, succeededNoOutput: 0 };
  const rows = conn.stmt<{ status: JobStatus; n: number }>('SELECT status, count(*) AS n FROM memory_jobs GROUP BY status').all();
  for (const row of rows) {
    if (row.status === 'pending') out.pending = row.n;
    else if (row.status === 'leased') out.leased = row.n;
    else if (row.status === 'retry_wait') out.retryWait = row.n;
    else if (row.status === 'succeeded') out.succeeded = row.n;
    else out.succeededNoOutput = row.n;
  }
  return out;
}

/** M-10.1 / M-9.4: jobs whose worker vanished (lease expired) become claimable again. */
export function reclaimExpiredJobs(conn: Connection, now: number): number {
  return conn.immediate(
    () =>
      conn
        .stmt(
          `UPDATE memory_jobs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
            WHERE finished_at IS NULL AND status = 'leased' AND lease_expires_at < ?`,
        )
        .run(now, now).changes,
    { durable: false },
  );
}

/** A claimed set of jobs: one extraction batch (1–4 jobs of one thread) or one consolidation job. */
export interface ClaimedBatch {
  batchId: string;
  kind: JobKind;
  threadId: string;
  generation: number;
  owner: string;
  jobs: JobRecord[];
}

export interface ClaimOptions {
  now: number;
  owner: string;
  batchId: string;
  leaseExpiresAt: number;
  /** Run extraction without waiting for the 2-turn / 30-second rule (tools, tests, exit pass). */
  force: boolean;
  /** Exit pass (M-10.2): only these job ids, applied inside the claim SQL before ORDER BY and LIMIT. */
  allow: string[] | null;
  /** Only jobs of this thread (`/new` gives the old thread's jobs one chance). */
  threadId: string | null;
}

/** M-5.1: the oldest-pending wait before a single turn is extracted on its own. */
export const EXTRACTION_WAIT_MS = 30_000;
/** M-5.1: a batch claims at most this many turns of one thread. */
export const EXTRACTION_BATCH_SIZE = 4;

/**
 * Claims the next due extraction batch: the thread whose jobs are due (2 waiting, the oldest 30 s old, or
 * a retry whose time came), then up to 4 of its due jobs in thread sequence order. A thread with a live
 * batch in flight is skipped so its turns are extracted in order and drained after that batch.
 */
export function claimExtractionBatch(conn: Connection, options: ClaimOptions): ClaimedBatch | null {
  return conn.immediate(() => {
    const params = {
      now: options.now,
      allow: options.allow === null ? null : JSON.stringify(options.allow),
      thread: options.threadId,
    };
    // Per thread, from a few index seeks: up to 2 due pending jobs (2 make the thread due at once; with 1,
    // its age decides) and whether a retry is due. Never a scan of every pending job.
    const threads = conn
      .stmt<{ thread_id: string; n: number; oldest: number | null; retry: number }>(
        `SELECT t.id AS thread_id,
                (SELECT count(*) FROM (SELECT 1 FROM memory_jobs j WHERE j.finished_at IS NULL AND j.status = 'pending' AND j.thread_id = t.id AND ${DUE_COMMON} LIMIT 2)) AS n,
                (SELECT min(created_at) FROM (SELECT j.created_at FROM memory_jobs j WHERE j.finished_at IS NULL AND j.status = 'pending' AND j.thread_id = t.id AND ${DUE_COMMON} LIMIT 2)) AS oldest,
                (SELECT count(*) FROM (SELECT 1 FROM memory_jobs j WHERE j.finished_at IS NULL AND j.status = 'retry_wait' AND j.available_at <= :now AND j.thread_id = t.id AND ${DUE_COMMON} LIMIT 1)) AS retry
           FROM threads t
          WHERE (:thread IS NULL OR t.id = :thread)`,
      )
      .all(params)
      .filter((t) => t.n > 0 || t.retry > 0)
      .sort((a, b) => (a.oldest ?? Number.MAX_SAFE_INTEGER) - (b.oldest ?? Number.MAX_SAFE_INTEGER) || a.thread_id.localeCompare(b.thread_id));
    const generation = conn.stmt<{ generation: number }>('SELECT generation FROM memory_meta WHERE id = 1').get()?.generation;
    for (const t of threads) {
      const due = options.force || t.n >= 2 || (t.oldest !== null && t.oldest <= options.now - EXTRACTION_WAIT_MS) || t.retry === 1;
      if (!due || generation === undefined) continue;
      // One batch per thread at a time, so its turns are extracted in order and drained after a batch.
      const busy = conn
        .stmt(
          `SELECT 1 FROM memory_jobs
            WHERE finished_at IS NULL AND status = 'leased' AND kind = 'extraction' AND thread_id = ? AND lease_expires_at >= ? LIMIT 1`,
        )
        .get(t.thread_id, options.now);
      if (busy) continue;
      const rows = conn
        .stmt<JobRow>(
          `SELECT ${JOB_COLUMNS} FROM memory_jobs WHERE id IN (
             SELECT id FROM (${dueExtraction(`AND thread_id = :claimThread ORDER BY turn_sequence LIMIT ${EXTRACTION_BATCH_SIZE}`)})
              ORDER BY turn_sequence LIMIT ${EXTRACTION_BATCH_SIZE})
           ORDER BY turn_sequence`,
        )
        .all({ now: params.now, allow: params.allow, claimThread: t.thread_id });
      return leaseJobs(conn, 'extraction', t.thread_id, generation, rows, options);
    }
    return null;
  }, { durable: false });
}

/**
 * Due extraction jobs of the current generation: pending, or waiting for a retry whose time has come. Two
 * ordered index scans on memory_jobs_status; the allowlist (exit pass) and thread condition apply inside
 * them, before any ordering or LIMIT (M-10.2). `tail` is appended to each of the two scans.
 */
function dueExtraction(tail: string): string {
  const common = DUE_COMMON.replaceAll('j.', '');
  return `SELECT * FROM (SELECT id, thread_id, created_at, status, turn_sequence FROM memory_jobs
                          WHERE finished_at IS NULL AND status = 'pending' AND ${common} ${tail})
          UNION ALL
          SELECT * FROM (SELECT id, thread_id, created_at, status, turn_sequence FROM memory_jobs
                          WHERE finished_at IS NULL AND status = 'retry_wait' AND available_at <= :now AND ${common} ${tail})`;
}

const DUE_COMMON = `j.kind = 'extraction'
       AND j.generation = (SELECT generation FROM memory_meta WHERE id = 1)
       AND (:allow IS NULL OR j.id IN (SELECT value FROM json_each(:allow)))`;

/**
 * Claims the oldest due consolidation job. Consolidation is serialized: nothing is claimed while another
 * consolidation lease is live. In the exit pass a child of an allowed extraction job is allowed too.
 */
export function claimConsolidationJob(conn: Connection, options: ClaimOptions): ClaimedBatch | null {
  return conn.immediate(() => {
    const row = conn
      .stmt<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM memory_jobs
          WHERE id = (
            SELECT id FROM (
              SELECT id, created_at FROM memory_jobs
               WHERE finished_at IS NULL AND status = 'pending' AND kind = 'consolidation'
                 AND (:allow IS NULL OR id IN (SELECT value FROM json_each(:allow)))
                 AND (:thread IS NULL OR thread_id = :thread)
              UNION ALL
              SELECT id, created_at FROM memory_jobs
               WHERE finished_at IS NULL AND status = 'retry_wait' AND kind = 'consolidation' AND available_at <= :now
                 AND (:allow IS NULL OR id IN (SELECT value FROM json_each(:allow)))
                 AND (:thread IS NULL OR thread_id = :thread))
             ORDER BY created_at, id LIMIT 1)
            AND generation = (SELECT generation FROM memory_meta WHERE id = 1)
            AND NOT EXISTS (SELECT 1 FROM memory_jobs l
                             WHERE l.finished_at IS NULL AND l.status = 'leased' AND l.kind = 'consolidation' AND l.lease_expires_at >= :now)`,
      )
      .get({ now: options.now, allow: options.allow === null ? null : JSON.stringify(options.allow), thread: options.threadId });
    if (!row) return null;
    return leaseJobs(conn, 'consolidation', row.thread_id, row.generation, [row], options);
  }, { durable: false });
}

function leaseJobs(
  conn: Connection,
  kind: JobKind,
  threadId: string,
  generation: number,
  rows: JobRow[],
  options: ClaimOptions,
): ClaimedBatch | null {
  if (rows.length === 0) return null;
  const jobs: JobRecord[] = [];
  for (const row of rows) {
    // Attempts are counted at claim time, so a worker that dies mid-call still used an attempt.
    const leased = conn
      .stmt<JobRow>(
        `UPDATE memory_jobs SET status = 'leased', lease_owner = ?, lease_expires_at = ?, batch_id = ?,
                attempt_count = attempt_count + 1, updated_at = ?
          WHERE id = ? AND status IN ('pending', 'retry_wait')
         RETURNING ${JOB_COLUMNS}`,
      )
      .get(options.owner, options.leaseExpiresAt, options.batchId, options.now, row.id);
    if (leased) jobs.push(mapJob(leased));
  }
  if (jobs.length === 0) return null;
  return { batchId: options.batchId, kind, threadId, generation, owner: options.owner, jobs };
}

function jobIdsOf(batch: ClaimedBatch): string {
  return JSON.stringify(batch.jobs.map((j) => j.id));
}

/**
 * M-9.2 fencing: true when every job of the batch is still leased by this owner and the generation has
 * not moved (a `clear` deletes jobs and bumps it). Must run inside the committing transaction.
 */
export function batchStillOwned(conn: Connection, batch: ClaimedBatch): boolean {
  const row = conn
    .stmt<{ n: number }>(
      `SELECT count(*) AS n FROM memory_jobs
        WHERE id IN (SELECT value FROM json_each(?)) AND batch_id = ? AND status = 'leased' AND lease_owner = ?
          AND generation = ? AND generation = (SELECT generation FROM memory_meta WHERE id = 1)`,
    )
    .get(jobIdsOf(batch), batch.batchId, batch.owner, batch.generation);
  return row?.n === batch.jobs.length;
}

/** Extends the leases of an in-flight batch while its model call runs. */
export function heartbeatBatch(conn: Connection, batch: ClaimedBatch, leaseExpiresAt: number, now: number): boolean {
  return conn.immediate(
    () =>
      conn
        .stmt(
          `UPDATE memory_jobs SET lease_expires_at = ?, updated_at = ?
            WHERE id IN (SELECT value FROM json_each(?)) AND batch_id = ? AND status = 'leased' AND lease_owner = ?`,
        )
        .run(leaseExpiresAt, now, jobIdsOf(batch), batch.batchId, batch.owner).changes > 0,
    { durable: false },
  );
}

/**
 * Marks a batch finished. Call inside the committing transaction, after `batchStillOwned`. Diagnostics
 * go on the batch's lead job (its first), so each batch is counted once.
 */
export function finishBatch(
  conn: Connection,
  batch: ClaimedBatch,
  status: 'succeeded' | 'succeeded_no_output',
  diagnostics: unknown,
  now: number,
): void {
  conn
    .stmt(
      `UPDATE memory_jobs SET status = ?, lease_owner = NULL, lease_expires_at = NULL,
              diagnostics = CASE WHEN id = ? THEN ? ELSE NULL END, finished_at = ?, updated_at = ?
        WHERE id IN (SELECT value FROM json_each(?)) AND batch_id = ? AND status = 'leased' AND lease_owner = ?`,
    )
    .run(status, batch.jobs[0]!.id, diagnostics === null ? null : JSON.stringify(diagnostics), now, now, jobIdsOf(batch),
      batch.batchId, batch.owner);
  refreshGlobalLastError(conn, now, true);
}

/** M-9.4 backoff: 5 s → 30 s → 2 min → 10 min → 1 h, capped. */
export const RETRY_BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000] as const;

export function retryDelay(attemptCount: number): number {
  const index = Math.min(Math.max(attemptCount, 1), RETRY_BACKOFF_MS.length) - 1;
  return RETRY_BACKOFF_MS[index]!;
}

/**
 * Puts a failed batch into retry with its RAW error. Fenced like a commit: a worker that lost its lease or
 * generation writes nothing, not even its failure. Returns the next retry time, or null when fenced.
 */
export function failBatch(conn: Connection, batch: ClaimedBatch, rawError: string, diagnostics: unknown, now: number): number | null {
  return conn.immediate(() => {
    if (!batchStillOwned(conn, batch)) return null;
    const attempts = Math.max(...batch.jobs.map((j) => j.attemptCount));
    const nextRetryAt = now + retryDelay(attempts);
    conn
      .stmt(
        `UPDATE memory_jobs SET status = 'retry_wait', lease_owner = NULL, lease_expires_at = NULL, available_at = ?,
                last_error = ?, diagnostics = CASE WHEN id = ? THEN ? ELSE NULL END, updated_at = ?
          WHERE id IN (SELECT value FROM json_each(?)) AND batch_id = ? AND status = 'leased' AND lease_owner = ?`,
      )
      .run(nextRetryAt, rawError, batch.jobs[0]!.id, diagnostics === null ? null : JSON.stringify(diagnostics), now,
        jobIdsOf(batch), batch.batchId, batch.owner);
    refreshGlobalLastError(conn, now, false);
    return nextRetryAt;
   }, { durable: false });
}

/** Open (not finished) job ids, for the exit-pass snapshot (M-10.2). */
export function snapshotOpenJobs(conn: Connection, now: number, threadId: string | null): string[] {
  return conn
    .stmt<{ id: string }>(
      `SELECT id FROM memory_jobs
        WHERE finished_at IS NULL AND (status = 'pending' OR (status = 'retry_wait' AND available_at <= ?))
          AND (? IS NULL OR thread_id = ?)
        ORDER BY created_at, id`,
    )
    .all(now, threadId, threadId)
    .map((r) => r.id);
}

/** Children of the given extraction jobs: the consolidation jobs they produced. */
export function childJobs(conn: Connection, parentIds: string[]): string[] {
  if (parentIds.length === 0) return [];
  return conn
    .stmt<{ id: string }>('SELECT id FROM memory_jobs WHERE parent_job_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(parentIds))
    .map((r) => r.id);
}
