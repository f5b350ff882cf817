import type { Connection } from '../db/connection.js';
import type { JobKind, JobRecord } from '../types.js';
import { type BatchDiagnostics, diagnosticsPath, writeDiagnostics } from './diagnostics.js';
import { EXTRACTION_BATCH_SIZE, EXTRACTION_WAIT_MS, FAILED_AT, RETRY_DUE, RETRY_DUE_J, isRetryDue } from './job-times.js';
import { JOB_COLUMNS, type JobRow, toJobRecord } from './jobs.js';
import { type LeaseRule, liveLeases, mayTakeOver } from './leases.js';
import { currentGeneration, refreshGlobalLastError } from './meta.js';

const BATCH_CAP = diagnosticsPath('batchCap');

/**
 * Claims and their fencing (M-9.2): a batch is leased in one transaction (attempts counted at claim time),
 * heartbeated while its model call runs, and finished only by the owner that still holds it in the
 * generation it was claimed in. Leases of vanished workers are taken back (M-10.1).
 */

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
                  WHERE j.finished_at IS NULL AND j.status = 'retry_wait' AND ${RETRY_DUE_J}
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
    .stmt<JobRow & { turn_sequence: number; cap: number | null }>(
      `SELECT * FROM (SELECT ${JOB_COLUMNS}, turn_sequence, json_extract(diagnostics, '${BATCH_CAP}') AS cap FROM memory_jobs
                        WHERE finished_at IS NULL AND status = 'pending' AND kind = 'extraction' AND thread_id = :thread
                        ORDER BY turn_sequence LIMIT ${EXTRACTION_BATCH_SIZE})
       UNION ALL
       SELECT * FROM (SELECT ${JOB_COLUMNS}, turn_sequence, json_extract(diagnostics, '${BATCH_CAP}') AS cap FROM memory_jobs
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
    const due = row.status === 'pending' || (row.status === 'retry_wait' && isRetryDue(row.available_at, options.now));
    if (!due || row.generation !== current || (allow !== null && !allow.has(row.id)) || out.length >= cap) break;
    out.push(toJobRecord(row));
  }
  return out;
}

/** SQL: an extraction job `j` of the current generation, in the exit pass's allowlist when there is one. */
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
               WHERE finished_at IS NULL AND status = 'retry_wait' AND kind = 'consolidation' AND ${RETRY_DUE}
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
      return leaseJobs(conn, 'consolidation', row.thread_id, row.generation, [row], options);
    },
    { durable: false },
  );
}

function leaseJobs(
  conn: Connection,
  kind: JobKind,
  threadId: string,
  generation: number,
  rows: readonly { id: string }[],
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
    if (leased) jobs.push(toJobRecord(leased));
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
  diagnostics: BatchDiagnostics | null,
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
      diagnostics === null ? null : writeDiagnostics(diagnostics),
      now,
      now,
      jobIdsOf(batch),
      batch.batchId,
      batch.owner,
    );
  refreshGlobalLastError(conn, now, true);
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
