import { MemoryNotFoundError } from '../../shared/errors.js';
import type { Connection } from '../db/connection.js';
import { type JobFailureState, diagnosticsPath, readFailureState, writeDiagnostics } from './diagnostics.js';
import type { ClaimedBatch } from './job-claims.js';
import { batchStillOwned } from './job-claims.js';
import { EXTRACTION_BATCH_SIZE, FAILED_AT, MAX_UNUSABLE_ANSWERS, retryDelay, unusableDelay } from './job-times.js';
import { refreshGlobalLastError } from './meta.js';

const UNUSABLE = diagnosticsPath('unusable');
const FAILED = diagnosticsPath('failed');

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
      const runs = batch.jobs.map((job) => readFailureState(previous.get(job.id)?.diagnostics ?? null, EXTRACTION_BATCH_SIZE).unusable + 1);
      const delay = failure.unusable ? unusableDelay(Math.max(...runs)) : retryDelay(attempts);
      const nextRetryAt = split ? now : now + delay;
      const failedJobIds: string[] = [];
      const update = conn.stmt(
        `UPDATE memory_jobs SET status = 'retry_wait', lease_owner = NULL, lease_expires_at = NULL, available_at = ?,
              last_error = ?, diagnostics = ?, updated_at = ?
        WHERE id = ? AND batch_id = ? AND status = 'leased' AND lease_owner = ?`,
      );
      for (const job of batch.jobs) {
        const before = readFailureState(previous.get(job.id)?.diagnostics ?? null, EXTRACTION_BATCH_SIZE);
        const unusable = failure.unusable ? before.unusable + 1 : before.unusable;
        const batchCap = split ? Math.max(1, Math.ceil(size / 2)) : before.batchCap;
        const failed = failure.unusable && size === 1 && unusable >= MAX_UNUSABLE_ANSWERS;
        if (failed) failedJobIds.push(job.id);
        const state: JobFailureState = { purpose: failure.purpose, error: failure.error, unusable, batchCap, failed };
        update.run(failed ? FAILED_AT : nextRetryAt, failure.rawError, writeDiagnostics(state), now, job.id, batch.batchId, batch.owner);
      }
      refreshGlobalLastError(conn, now, false);
      return { nextRetryAt, failedJobIds, split };
    },
    { durable: false },
  );
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
              diagnostics = json_set(coalesce(diagnostics, '{}'), '${UNUSABLE}', 0, '${FAILED}', json('false'))
        WHERE id = ? AND status = 'retry_wait' AND available_at >= ${FAILED_AT}`,
    );
    for (const id of ids) update.run(now, now, id);
    if (ids.length > 0) refreshGlobalLastError(conn, now, false);
    return ids;
  });
}
