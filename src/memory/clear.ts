import { rmSync } from 'node:fs';
import type { Connection } from './connection.js';

/** What a clear carries over from the old database (M-10.3). */
export interface ClearBasis {
  /** max(existing meta generation, existing job generation, 0) */
  oldGeneration: number;
  /** created_at of a valid old meta row, else null */
  createdAt: number | null;
}

/** Reads what it can; any part that cannot be read counts as absent. */
export function readClearBasis(conn: Connection | null): ClearBasis {
  let metaGeneration = 0;
  let jobGeneration = 0;
  let createdAt: number | null = null;
  if (conn) {
    try {
      const meta = conn.db.prepare('SELECT generation, created_at FROM memory_meta WHERE id = 1').get() as
        | { generation: unknown; created_at: unknown }
        | undefined;
      if (meta && Number.isSafeInteger(meta.generation) && (meta.generation as number) >= 1) {
        metaGeneration = meta.generation as number;
        if (Number.isSafeInteger(meta.created_at)) createdAt = meta.created_at as number;
      }
    } catch {
      // No readable meta: the formula treats it as 0 and created_at becomes now.
    }
    try {
      const jobs = conn.db.prepare('SELECT max(generation) AS g FROM memory_jobs').get() as { g: unknown } | undefined;
      if (jobs && Number.isSafeInteger(jobs.g)) jobGeneration = jobs.g as number;
    } catch {
      // No readable jobs table.
    }
  }
  return { oldGeneration: Math.max(metaGeneration, jobGeneration, 0), createdAt };
}

/**
 * Deletes every thread, turn, job, candidate and item and writes the one meta row and one empty active
 * thread, in one transaction. Deleting the jobs and bumping the generation fences every old worker.
 */
export function clearInPlace(conn: Connection, input: { generation: number; createdAt: number; threadId: string; now: number }): void {
  conn.immediate(() => {
    conn.db.exec(`
      DELETE FROM memory_terms;
      DELETE FROM memory_term_suffixes;
      DELETE FROM memory_content_terms;
      DELETE FROM memory_item_candidates;
      DELETE FROM memory_items;
      DELETE FROM candidate_sources;
      DELETE FROM memory_candidates;
      DELETE FROM memory_jobs;
      DELETE FROM turns;
      DELETE FROM threads;
      DELETE FROM memory_meta;
    `);
    conn
      .stmt('INSERT INTO memory_meta (id, generation, created_at, updated_at) VALUES (1, ?, ?, ?)')
      .run(input.generation, input.createdAt, input.now);
    conn.stmt("INSERT INTO threads (id, status, created_at, updated_at) VALUES (?, 'active', ?, ?)").run(input.threadId, input.now, input.now);
  });
}

/** Removes the database and its side files, for a clear of a database whose schema itself is broken. */
export function removeDatabaseFiles(dbPath: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(dbPath + suffix, { force: true });
}
