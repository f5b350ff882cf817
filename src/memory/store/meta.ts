import type { Connection } from '../db/connection.js';

export interface MetaRecord {
  generation: number;
  lastError: string | null;
  lastSucceededAt: number | null;
  createdAt: number;
  updatedAt: number;
}

interface MetaRow {
  generation: number;
  last_error: string | null;
  last_succeeded_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The current generation (M-9.2 fencing), or undefined when the meta row is missing. */
export function currentGeneration(conn: Connection): number | undefined {
  return conn.stmt<{ generation: number }>('SELECT generation FROM memory_meta WHERE id = 1').get()?.generation;
}

/** True when the singleton meta row exists (the operational guard, M-2.4). */
export function metaExists(conn: Connection): boolean {
  return conn.stmt<{ n: number }>('SELECT count(*) AS n FROM memory_meta WHERE id = 1').get()?.n === 1;
}

export function readMeta(conn: Connection): MetaRecord | null {
  const row = conn
    .stmt<MetaRow>('SELECT generation, last_error, last_succeeded_at, created_at, updated_at FROM memory_meta WHERE id = 1')
    .get();
  if (!row) return null;
  return {
    generation: row.generation,
    lastError: row.last_error,
    lastSucceededAt: row.last_succeeded_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * M-9.6: the global last error is the error of the most recently updated unresolved job (pending, leased
 * or retry-wait), `updated_at DESC, id DESC`; it clears only when no unresolved job carries an error.
 * Called inside every transaction that changes a job's status or error. Unresolved means unfinished, so the
 * lookup reads the open-jobs index (the work in flight), not every job that ever failed.
 */
export function refreshGlobalLastError(conn: Connection, now: number, succeeded: boolean): void {
  conn
    .stmt(
      `UPDATE memory_meta SET
         last_error = (SELECT last_error FROM memory_jobs
                        WHERE finished_at IS NULL AND status IN ('pending', 'leased', 'retry_wait') AND last_error IS NOT NULL
                        ORDER BY updated_at DESC, id DESC LIMIT 1),
         last_succeeded_at = CASE WHEN ? THEN ? ELSE last_succeeded_at END,
         updated_at = ?
       WHERE id = 1`,
    )
    .run(succeeded ? 1 : 0, now, now);
}
