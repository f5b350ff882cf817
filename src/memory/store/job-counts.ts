import type { Connection } from '../db/connection.js';
import type { JobCounts, JobKind, JobStatus, OpenJobCounts } from '../types.js';
import { diagnosticsPath } from './diagnostics.js';
import { FAILED_AT } from './job-times.js';

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

/** Unresolved work, for status: failed jobs with their reasons, and the oldest job still waiting. */
export interface UnresolvedJobs {
  failed: { id: string; kind: JobKind; attempts: number; reason: string }[];
  oldestCreatedAt: number | null;
  maxAttempts: number;
}

export function unresolvedJobs(conn: Connection, limit = 10): UnresolvedJobs {
  const failed = conn
    .stmt<{ id: string; kind: JobKind; attempt_count: number; reason: string | null }>(
      `SELECT id, kind, attempt_count, json_extract(diagnostics, '${diagnosticsPath('error')}') AS reason FROM memory_jobs
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

/** Sums the refusals recorded in finished jobs' diagnostics, by reason (M-5.4, M-6.4). */
export function refusalCounts(conn: Connection): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of conn
    .stmt<{ reason: string; n: number }>(
      `SELECT f.key AS reason, sum(f.value) AS n FROM memory_jobs j, json_each(j.diagnostics, '${diagnosticsPath('filtered')}') f
        WHERE j.diagnostics IS NOT NULL AND j.finished_at IS NOT NULL GROUP BY f.key`,
    )
    .all()) {
    out[row.reason] = row.n;
  }
  return out;
}
