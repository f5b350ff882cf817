import type { Connection } from '../db/connection.js';
import type { JobKind, JobRecord, JobStatus } from '../types.js';
import { EXTRACTION_WAIT_MS, FAILED_AT, MAX_RETRY_AHEAD_MS, RETRY_DUE } from './job-times.js';

/** A `memory_jobs` row as SQLite returns it (its record is `JobRecord`, see `toJobRecord`). */
export interface JobRow {
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

/** The columns of a `JobRow`. */
export const JOB_COLUMNS =
  'id, kind, status, thread_id, turn_id, parent_job_id, generation, attempt_count, lease_owner, lease_expires_at, available_at, ' +
  'last_error, created_at, updated_at';

/** A job as the rest of Memory sees it. */
export function toJobRecord(row: JobRow): JobRecord {
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

/** Open (not finished) job ids, for the exit-pass snapshot (M-10.2). */
export function snapshotOpenJobs(conn: Connection, now: number, threadId: string | null): string[] {
  return conn
    .stmt<{ id: string }>(
      `SELECT id FROM memory_jobs
        WHERE finished_at IS NULL AND (status = 'pending' OR (status = 'retry_wait' AND ${RETRY_DUE}))
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
