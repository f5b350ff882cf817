import { renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomToken } from '../../shared/ids.js';
import { REPLACEMENT_PREFIX } from './bootstrap.js';
import { Connection } from '../db/connection.js';
import { SIDE_SUFFIXES, damagedName, syncDir } from './files.js';
import { writeSeedRows } from './seed.js';
import { isDamage, typedStorageError } from '../db/storage-fault.js';

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
        { generation: unknown; created_at: unknown } | undefined;
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
    writeSeedRows(conn, input);
  });
}

/**
 * Takes the write lock of the database about to be replaced, so a live session's write transaction either
 * committed before the replacement or starts after it and then finds `memory.db` changed (MemoryLeaseError).
 * Returns the release function, or null when SQLite cannot even open the file (then no session can write it).
 */
export function holdWriteLock(dbPath: string, busyTimeoutMs?: number): (() => void) | null {
  let conn: Connection;
  try {
    conn = Connection.open(dbPath, { fileMustExist: true, ...(busyTimeoutMs !== undefined ? { busyTimeoutMs } : {}) });
  } catch (error) {
    if (isDamage(error)) return null;
    throw error;
  }
  try {
    conn.db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    conn.close();
    if (isDamage(error)) return null;
    throw error;
  }
  return () => {
    try {
      conn.db.exec('ROLLBACK');
    } finally {
      conn.close();
    }
  };
}

/**
 * Replaces a damaged database for a clear, never deleting it: the new database is built and synced in a
 * temp file first (`build`); then, under the old file's write lock (`lock`), the damaged file and its
 * -wal/-shm/-journal are renamed to `memory.db.damaged-<timestamp>…`; then the new file is renamed over
 * `memory.db`. A failure at any step undoes the renames done so far and removes the temp file, so the old
 * state stays. Returns where the damaged file went (null when there was no file).
 */
export function replaceDamagedDatabase(
  dbPath: string,
  now: number,
  build: (tempPath: string) => void,
  lock: () => (() => void) | null = () => null,
): string | null {
  const dir = dirname(dbPath);
  const temp = join(dir, `${REPLACEMENT_PREFIX}${process.pid}-${randomToken(8)}`);
  const done: [from: string, to: string][] = [];
  let release: (() => void) | null = null;
  try {
    build(temp);
    release = lock();
    const aside = damagedName(dbPath, now);
    const moves: [string, string][] = SIDE_SUFFIXES.map((suffix) => [dbPath + suffix, aside + suffix]);
    // Side files first: a new memory.db must never meet the old WAL.
    moves.push([dbPath, aside]);
    for (const [from, to] of moves) {
      if (!statSync(from, { throwIfNoEntry: false })) continue;
      renameSync(from, to);
      done.push([from, to]);
    }
    // Released before the new file appears. The closing connection sees its file moved, so SQLite neither
    // checkpoints into it nor unlinks side files by their old names (which will belong to the new database).
    const releasing = release;
    release = null;
    releasing?.();
    renameSync(temp, dbPath);
    syncDir(dir);
    return done.some(([from]) => from === dbPath) ? aside : null;
  } catch (error) {
    for (const [from, to] of done.reverse()) {
      try {
        renameSync(to, from);
      } catch {
        // Keep undoing the others; the damaged file is still on disk under its new name.
      }
    }
    try {
      release?.();
    } catch {
      // The lock goes with the connection; the clear's own error is the one to report.
    }
    for (const suffix of ['', ...SIDE_SUFFIXES]) rmSync(temp + suffix, { force: true });
    throw typedStorageError(error, 'clear could not replace the damaged database (nothing was changed)', dir);
  }
}
