import { MemoryNotFoundError } from '../../shared/errors.js';
import type { Connection } from '../db/connection.js';
import type { JobCounts, JobKind, JobRecord, JobStatus, OpenJobCounts } from '../types.js';
import { type LeaseRule, liveLeases, mayTakeOver } from './leases.js';
import { currentGeneration, refreshGlobalLastError } from './meta.js';

// Columns under their record names: a row is a JobRecord as it comes, no mapping layer.
const JOB_COLUMNS =
  'id, kind, status, thread_id AS threadId, turn_id AS turnId, parent_job_id AS parentJobId, generation, attempt_count AS attemptCount, ' +
  'lease_owner AS leaseOwner, lease_expires_at AS leaseExpiresAt, available_at AS availableAt, last_error AS lastError, ' +
  'created_at AS createdAt, updated_at AS updatedAt';

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

/** Jobs by state; `finished` false reads only the unfinished ones. */
function tallyJobs(conn: Connection, finished: boolean): JobCounts {
  const out: JobCounts = { pending: 0, leased: 0, retryWait: 0, failed: 0, succeeded: 0, succeededNoOutput: 0 };
  const rows = conn
    .stmt<{ status: JobStatus; failed: number; n: number }>(
      `SELECT status, status = 'retry_wait' AND available_at >= ${FAILED_AT} AS failed, count(*) AS n FROM memory_jobs
        ${finished ? '' : 'WHERE finished_at IS NULL'} GROUP BY 1, 2`,
    )
    .all();
  const key: Record<JobStatus, keyof JobCounts> = {
    pending: 'pending',
    leased: 'leased',
    retry_wait: 'retryWait',
    succeeded: 'succeeded',
    succeeded_no_output: 'succeededNoOutput',
  };
  for (const row of rows) out[row.failed ? 'failed' : key[row.status]] = row.n;
  return out;
}

/** Every job by state (reads the whole table: `status()` only). */
export function countJobs(conn: Connection): JobCounts {
  return tallyJobs(conn, true);
}

/**
 * Unfinished jobs by state, from the `memory_jobs_open` index (finished jobs are never read): cheap at any
 * size, for the decisions a session makes after every request and at exit.
 */
export function countOpenJobs(conn: Connection): OpenJobCounts {
  const { pending, leased, retryWait, failed } = tallyJobs(conn, false);
  return { pending, leased, retryWait, failed };
}

/**
 * M-9.4a: a job whose model answer was unusable this many times in a row becomes `failed`: terminal until
 * `retry`. Stored as `retry_wait` with a retry time that never comes, so the status values outside tools
 * read stay those of M-2.1.
 */
export const MAX_UNUSABLE_ANSWERS = 6;
/** The retry time of a failed job: never. */
export const FAILED_AT = Number.MAX_SAFE_INTEGER;

/** Per-job failure state kept in `memory_jobs.diagnostics` while a job is unfinished. */
export interface JobFailureState {
  purpose: string;
  error: string;
  /** Unusable model answers in a row (transport failures neither add nor reset). */
  unusable: number;
  /** At most this many turns in the next batch that starts with this job (bisecting a poison turn). */
  batchCap: number;
  /** True when the job is failed (terminal until `retry`). */
  failed: boolean;
}

/** Unresolved work, for status: failed jobs with their reasons, and the oldest job still waiting. */
export interface UnresolvedJobs {
  failed: { id: string; kind: JobKind; attempts: number; reason: string }[];
  oldestCreatedAt: number | null;
  maxAttempts: number;
}

export function unresolvedJobs(conn: Connection, limit = 10): UnresolvedJobs {
  const failed = conn
    .stmt<{ id: string; kind: JobKind; attempt_count: number; reason: string | null }>(
      `SELECT id, kind, attempt_count, json_extract(diagnostics, '$.error') AS reason FROM memory_jobs
        WHERE finished_at IS NULL AND status = 'retry_wait' AND available_at >= ${FAILED_AT}
        ORDER BY updated_at DESC, id DESC LIMIT ?`,
    )
    .all(limit)
    .map((r) => ({ id: r.id, kind: r.kind, attempts: r.attempt_count, reason: r.reason ?? 'unusable model answers' }));
  const oldest = conn
    .stmt<{ at: number | null; attempts: number | null }>(
      `SELECT min(created_at) AS at, max(attempt_count) AS attempts FROM memory_jobs ` +
        `WHERE finished_at IS NULL AND status IN ('pending', 'leased', 'retry_wait')`,
    )
    .get();
  return { failed, oldestCreatedAt: oldest?.at ?? null, maxAttempts: oldest?.attempts ?? 0 };
}

/**
 * Unfinished jobs by state: of a verified database in one read, or as a degraded Memory's snapshot can still
 * count them — all zero when nothing can be read (no snapshot, or tables SQLite cannot read).
 */
export function readOpenJobs(conn: Connection | null, verified: boolean): OpenJobCounts {
  if (verified && conn) return conn.read(() => countOpenJobs(conn));
  try {
    return conn ? countOpenJobs(conn) : { pending: 0, leased: 0, retryWait: 0, failed: 0 };
  } catch {
    return { pending: 0, leased: 0, retryWait: 0, failed: 0 };
  }
}

/**
 * M-9.4a `retry` as asked: one job (id or unique prefix of at least 4 characters) or, without an id, every
 * failed job; an id that matches no failed job is MemoryNotFoundError. Returns the ids put back.
 */
export function retryJobs(conn: Connection, jobId: string | undefined, now: number): string[] {
  const wanted = jobId === undefined ? null : jobId.trim();
  if (wanted !== null && wanted.length === 0) throw new MemoryNotFoundError('', 'No job id given');
  const jobIds = retryFailedJobs(conn, wanted, now);
  if (wanted !== null && jobIds.length === 0) {
    throw new MemoryNotFoundError(wanted, `No failed job matches '${wanted}' (memory status lists them)`);
  }
  return jobIds;
}

/**
 * M-9.4a `retry`: puts failed jobs (one id or prefix, or all) back in the queue with a fresh run of
 * unusable answers. Returns the ids put back.
 */
export function retryFailedJobs(conn: Connection, jobId: string | null, now: number): string[] {
  return conn.immediate(() => {
    const rows = conn
      .stmt<{ id: string }>(
        `SELECT id FROM memory_jobs
          WHERE finished_at IS NULL AND status = 'retry_wait' AND available_at >= ${FAILED_AT}
            AND (? IS NULL OR id = ? OR (length(?) >= 4 AND substr(id, 1, length(?)) = ?))`,
      )
      .all(jobId, jobId, jobId, jobId, jobId);
    if (jobId !== null && rows.length > 1 && !rows.some((r) => r.id === jobId)) return [];
    const ids = jobId !== null && rows.some((r) => r.id === jobId) ? [jobId] : rows.map((r) => r.id);
    const update = conn.stmt(
      `UPDATE memory_jobs SET available_at = ?, updated_at = ?,
              diagnostics = json_set(coalesce(diagnostics, '{}'), '$.unusable', 0, '$.failed', json('false'))
        WHERE id = ? AND status = 'retry_wait' AND available_at >= ${FAILED_AT}`,
    );
    for (const id of ids) update.run(now, now, id);
    if (ids.length > 0) refreshGlobalLastError(conn, now, false);
    return ids;
  });
}

/**
 * M-10.1 / M-9.4: jobs whose worker vanished become claimable again — once their lease is over by this
 * reader's clock (or lies further ahead than a lease is given), or at once when their owner is a process of
 * this machine that no longer runs; never while that process runs (issue "Safe hands", items 5 and 6). Returns
 * the ids put back.
 */
export function reclaimExpiredJobs(conn: Connection, rule: LeaseRule): string[] {
  return conn.immediate(
    () => {
      const ids = liveLeases(conn)
        .jobs.filter((j) => mayTakeOver(j.owner, j.expiresAt, rule))
        .map((j) => j.id);
      const update = conn.stmt(
        `UPDATE memory_jobs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
          WHERE id = ? AND finished_at IS NULL AND status = 'leased'`,
      );
      for (const id of ids) update.run(rule.now, id);
      return ids;
    },
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
  return conn.immediate(
    () => {
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
                (SELECT count(*) FROM (SELECT 1 FROM memory_jobs j
                  WHERE j.finished_at IS NULL AND j.status = 'pending' AND j.thread_id = t.id AND ${DUE_COMMON} LIMIT 2)) AS n,
                (SELECT min(created_at) FROM (SELECT j.created_at FROM memory_jobs j
                  WHERE j.finished_at IS NULL AND j.status = 'pending' AND j.thread_id = t.id AND ${DUE_COMMON} LIMIT 2)) AS oldest,
                (SELECT count(*) FROM (SELECT 1 FROM memory_jobs j
                  WHERE j.finished_at IS NULL AND j.status = 'retry_wait' AND ${retryDue('j.available_at')}
                    AND j.thread_id = t.id AND ${DUE_COMMON} LIMIT 1)) AS retry
           FROM threads t
          WHERE (:thread IS NULL OR t.id = :thread)`,
        )
        .all(params)
        .filter((t) => t.n > 0 || t.retry > 0)
        .sort(
          (a, b) => (a.oldest ?? Number.MAX_SAFE_INTEGER) - (b.oldest ?? Number.MAX_SAFE_INTEGER) || a.thread_id.localeCompare(b.thread_id),
        );
      const generation = currentGeneration(conn);
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
        // A thread whose oldest job is not due yet (backing off, outside the exit pass) yields to the next thread.
        const batch = leaseJobs(conn, 'extraction', t.thread_id, generation, headOfThread(conn, t.thread_id, options), options);
        if (batch) return batch;
      }
      return null;
    },
    { durable: false },
  );
}

/**
 * M-9.4a: a thread's extraction batches commit in sequence order, so the rolling compaction always ends at
 * the newest processed turn. The batch is the due prefix of the thread's unfinished jobs (failed ones
 * aside): when the first of them is not due (waiting for its retry time, or not in the exit pass's
 * allowlist) nothing of the thread is claimed. It takes at most the cap its first job carries after a split.
 */
function headOfThread(conn: Connection, threadId: string, options: ClaimOptions): JobRecord[] {
  // Three ordered index seeks on memory_jobs_open, never a scan of the thread's backlog.
  const rows = conn
    .stmt<JobRecord & { turn_sequence: number; cap: number | null }>(
      `SELECT * FROM (SELECT ${JOB_COLUMNS}, turn_sequence, json_extract(diagnostics, '$.batchCap') AS cap FROM memory_jobs
                        WHERE finished_at IS NULL AND status = 'pending' AND kind = 'extraction' AND thread_id = :thread
                        ORDER BY turn_sequence LIMIT ${EXTRACTION_BATCH_SIZE})
       UNION ALL
       SELECT * FROM (SELECT ${JOB_COLUMNS}, turn_sequence, json_extract(diagnostics, '$.batchCap') AS cap FROM memory_jobs
                        WHERE finished_at IS NULL AND status = 'retry_wait' AND kind = 'extraction' AND thread_id = :thread
                          AND available_at < ${FAILED_AT}
                        ORDER BY turn_sequence LIMIT ${EXTRACTION_BATCH_SIZE})
       UNION ALL
       SELECT * FROM (SELECT ${JOB_COLUMNS}, turn_sequence, NULL AS cap FROM memory_jobs
                        WHERE finished_at IS NULL AND status = 'leased' AND kind = 'extraction' AND thread_id = :thread
                        ORDER BY turn_sequence LIMIT 1)`,
    )
    .all({ thread: threadId })
    .sort((a, b) => a.turn_sequence - b.turn_sequence)
    .slice(0, EXTRACTION_BATCH_SIZE);
  const allow = options.allow === null ? null : new Set(options.allow);
  const current = currentGeneration(conn);
  const cap = Math.max(1, Math.min(EXTRACTION_BATCH_SIZE, rows[0]?.cap ?? EXTRACTION_BATCH_SIZE));
  const out: JobRecord[] = [];
  for (const row of rows) {
    const due = row.status === 'pending' || (row.status === 'retry_wait' && isRetryDue(row.availableAt, options.now));
    if (!due || row.generation !== current || (allow !== null && !allow.has(row.id)) || out.length >= cap) break;
    out.push(row);
  }
  return out;
}

const DUE_COMMON = `j.kind = 'extraction'
       AND j.generation = (SELECT generation FROM memory_meta WHERE id = 1)
       AND (:allow IS NULL OR j.id IN (SELECT value FROM json_each(:allow)))`;

/**
 * Claims the oldest due consolidation job. Consolidation is serialized: nothing is claimed while another
 * consolidation lease is live. In the exit pass a child of an allowed extraction job is allowed too.
 */
export function claimConsolidationJob(conn: Connection, options: ClaimOptions): ClaimedBatch | null {
  return conn.immediate(
    () => {
      const row = conn
        .stmt<JobRecord>(
          `SELECT ${JOB_COLUMNS} FROM memory_jobs
          WHERE id = (
            SELECT id FROM (
              SELECT id, created_at FROM memory_jobs
               WHERE finished_at IS NULL AND status = 'pending' AND kind = 'consolidation'
                 AND (:allow IS NULL OR id IN (SELECT value FROM json_each(:allow)))
                 AND (:thread IS NULL OR thread_id = :thread)
              UNION ALL
              SELECT id, created_at FROM memory_jobs
               WHERE finished_at IS NULL AND status = 'retry_wait' AND kind = 'consolidation' AND ${retryDue('available_at')}
                 AND (:allow IS NULL OR id IN (SELECT value FROM json_each(:allow)))
                 AND (:thread IS NULL OR thread_id = :thread))
             ORDER BY created_at, id LIMIT 1)
            AND generation = (SELECT generation FROM memory_meta WHERE id = 1)
            AND NOT EXISTS (SELECT 1 FROM memory_jobs l
                             WHERE l.finished_at IS NULL AND l.status = 'leased' AND l.kind = 'consolidation'
                               AND l.lease_expires_at >= :now)`,
        )
        .get({ now: options.now, allow: options.allow === null ? null : JSON.stringify(options.allow), thread: options.threadId });
      if (!row) return null;
      return leaseJobs(conn, 'consolidation', row.threadId, row.generation, [row], options);
    },
    { durable: false },
  );
}

function leaseJobs(
  conn: Connection,
  kind: JobKind,
  threadId: string,
  generation: number,
  rows: JobRecord[],
  options: ClaimOptions,
): ClaimedBatch | null {
  if (rows.length === 0) return null;
  const jobs: JobRecord[] = [];
  for (const row of rows) {
    // Attempts are counted at claim time, so a worker that dies mid-call still used an attempt.
    const leased = conn
      .stmt<JobRecord>(
        `UPDATE memory_jobs SET status = 'leased', lease_owner = ?, lease_expires_at = ?, batch_id = ?,
                attempt_count = attempt_count + 1, updated_at = ?
          WHERE id = ? AND status IN ('pending', 'retry_wait')
         RETURNING ${JOB_COLUMNS}`,
      )
      .get(options.owner, options.leaseExpiresAt, options.batchId, options.now, row.id);
    if (leased) jobs.push(leased);
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
    .run(
      status,
      batch.jobs[0]!.id,
      diagnostics === null ? null : JSON.stringify(diagnostics),
      now,
      now,
      jobIdsOf(batch),
      batch.batchId,
      batch.owner,
    );
  refreshGlobalLastError(conn, now, true);
}

/** M-9.4 backoff of transport failures (network, timeout, 429, 5xx): 5 s → 30 s → 2 min → 10 min → 1 h, capped. */
export const RETRY_BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000] as const;

export function retryDelay(attemptCount: number): number {
  const index = Math.min(Math.max(attemptCount, 1), RETRY_BACKOFF_MS.length) - 1;
  return RETRY_BACKOFF_MS[index]!;
}

/**
 * Backoff after an unusable model answer (issue "Safe hands", item 7), by the run of unusable answers so far:
 * each attempt already asks again at once with the error attached (M-9.4a); between attempts 5 s, 10 s, 20 s,
 * 40 s, 80 s, so the sixth unusable answer makes the job `failed` about 2.5 minutes after the first. The model
 * answered, so asking again soon costs little, and one that cannot follow the contract will not learn it in an
 * hour; transport failures keep the long backoff of M-9.4.
 */
export const UNUSABLE_BACKOFF_MS = [5_000, 10_000, 20_000, 40_000, 80_000] as const;

export function unusableDelay(unusableInARow: number): number {
  return UNUSABLE_BACKOFF_MS[Math.min(Math.max(unusableInARow, 1), UNUSABLE_BACKOFF_MS.length) - 1]!;
}

/** A retry time further ahead than the longest backoff was set by a clock that ran ahead: it is due now. */
export const MAX_RETRY_AHEAD_MS = RETRY_BACKOFF_MS[RETRY_BACKOFF_MS.length - 1]! + 60_000;

/** SQL: the retry time in `column` is due at `:now` (a failed job's never-coming time excepted). */
function retryDue(column: string): string {
  return `(${column} <= :now OR (${column} > :now + ${MAX_RETRY_AHEAD_MS} AND ${column} < ${FAILED_AT}))`;
}

export function isRetryDue(availableAt: number, now: number): boolean {
  return availableAt <= now || (availableAt > now + MAX_RETRY_AHEAD_MS && availableAt < FAILED_AT);
}

/** How a batch failed: an unusable model answer (counts toward `failed`, splits the batch) or transport. */
export interface BatchFailure {
  rawError: string;
  purpose: string;
  /** One short line: what went wrong, for status and warnings. */
  error: string;
  unusable: boolean;
}

export interface FailedBatch {
  nextRetryAt: number;
  /** Jobs that became `failed` (terminal until `retry`). */
  failedJobIds: string[];
  /** True when the batch was split and its first half is due again at once. */
  split: boolean;
}

/**
 * Puts a failed batch into retry with its RAW error (M-9.4, M-9.4a). An unusable answer adds to each job's
 * run of unusable answers and halves the next batch, due at once, so a poison turn is isolated in a few
 * tries while its batch-mates go on; a job alone whose answers were unusable 6 times in a row becomes
 * `failed`. Transport failures only back off. Fenced like a commit: a worker that lost its lease or
 * generation writes nothing, not even its failure. Returns null when fenced.
 */
export function failBatch(conn: Connection, batch: ClaimedBatch, failure: BatchFailure, now: number): FailedBatch | null {
  return conn.immediate(
    () => {
      if (!batchStillOwned(conn, batch)) return null;
      const attempts = Math.max(...batch.jobs.map((j) => j.attemptCount));
      const size = batch.jobs.length;
      const split = failure.unusable && size > 1;
      const previous = conn.stmt<{ diagnostics: string | null }>('SELECT diagnostics FROM memory_jobs WHERE id = ?');
      const runs = batch.jobs.map((job) => readFailureState(previous.get(job.id)?.diagnostics ?? null).unusable + 1);
      const delay = failure.unusable ? unusableDelay(Math.max(...runs)) : retryDelay(attempts);
      const nextRetryAt = split ? now : now + delay;
      const failedJobIds: string[] = [];
      const update = conn.stmt(
        `UPDATE memory_jobs SET status = 'retry_wait', lease_owner = NULL, lease_expires_at = NULL, available_at = ?,
              last_error = ?, diagnostics = ?, updated_at = ?
        WHERE id = ? AND batch_id = ? AND status = 'leased' AND lease_owner = ?`,
      );
      for (const job of batch.jobs) {
        const before = readFailureState(previous.get(job.id)?.diagnostics ?? null);
        const unusable = failure.unusable ? before.unusable + 1 : before.unusable;
        const batchCap = split ? Math.max(1, Math.ceil(size / 2)) : before.batchCap;
        const failed = failure.unusable && size === 1 && unusable >= MAX_UNUSABLE_ANSWERS;
        if (failed) failedJobIds.push(job.id);
        const state: JobFailureState = { purpose: failure.purpose, error: failure.error, unusable, batchCap, failed };
        update.run(failed ? FAILED_AT : nextRetryAt, failure.rawError, JSON.stringify(state), now, job.id, batch.batchId, batch.owner);
      }
      refreshGlobalLastError(conn, now, false);
      return { nextRetryAt, failedJobIds, split };
    },
    { durable: false },
  );
}

function readFailureState(diagnostics: string | null): { unusable: number; batchCap: number } {
  let parsed: Partial<JobFailureState> = {};
  try {
    parsed = diagnostics === null ? {} : (JSON.parse(diagnostics) as Partial<JobFailureState>);
  } catch {
    parsed = {};
  }
  return {
    unusable: typeof parsed.unusable === 'number' ? parsed.unusable : 0,
    batchCap: typeof parsed.batchCap === 'number' ? parsed.batchCap : EXTRACTION_BATCH_SIZE,
  };
}

/**
 * When the background scheduler should look again (M-5.1): the earliest of a pending extraction's 30-second
 * wait ending, a pending consolidation, a retry time, an expiring job lease or an expiring turn lease.
 */
export function nextJobEventAt(conn: Connection, now: number): number | null {
  const row = conn
    .stmt<{ at: number | null }>(
      `SELECT min(at) AS at FROM (
         SELECT min(created_at) + ${EXTRACTION_WAIT_MS} AS at FROM memory_jobs
          WHERE finished_at IS NULL AND status = 'pending' AND kind = 'extraction'
         UNION ALL SELECT min(created_at) FROM memory_jobs WHERE finished_at IS NULL AND status = 'pending' AND kind = 'consolidation'
         UNION ALL SELECT min(CASE WHEN available_at > :now + ${MAX_RETRY_AHEAD_MS} THEN :now ELSE available_at END) FROM memory_jobs
          WHERE finished_at IS NULL AND status = 'retry_wait' AND available_at < ${FAILED_AT}
         UNION ALL SELECT min(lease_expires_at) + 1 FROM memory_jobs WHERE finished_at IS NULL AND status = 'leased'
         UNION ALL SELECT min(lease_expires_at) + 1 FROM turns WHERE state = 'open')`,
    )
    .get({ now });
  return row?.at ?? null;
}

/** Sums the refusals recorded in finished jobs' diagnostics, by reason (M-5.4, M-6.4). */
export function refusalCounts(conn: Connection): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of conn
    .stmt<{ reason: string; n: number }>(
      `SELECT f.key AS reason, sum(f.value) AS n FROM memory_jobs j, json_each(j.diagnostics, '$.filtered') f
        WHERE j.diagnostics IS NOT NULL AND j.finished_at IS NOT NULL GROUP BY f.key`,
    )
    .all()) {
    out[row.reason] = row.n;
  }
  return out;
}

/** Open (not finished) job ids, for the exit-pass snapshot (M-10.2). */
export function snapshotOpenJobs(conn: Connection, now: number, threadId: string | null): string[] {
  return conn
    .stmt<{ id: string }>(
      `SELECT id FROM memory_jobs
        WHERE finished_at IS NULL AND (status = 'pending' OR (status = 'retry_wait' AND ${retryDue('available_at')}))
          AND (:thread IS NULL OR thread_id = :thread)
        ORDER BY created_at, id`,
    )
    .all({ now, thread: threadId })
    .map((r) => r.id);
}

/** Unfinished jobs of the given turns (and the consolidation jobs they produced), oldest first. */
export function openJobsOfTurns(conn: Connection, turnIds: readonly string[]): string[] {
  if (turnIds.length === 0) return [];
  return conn
    .stmt<{ id: string }>(
      `SELECT id FROM memory_jobs WHERE finished_at IS NULL AND turn_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, id`,
    )
    .all(JSON.stringify(turnIds))
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
