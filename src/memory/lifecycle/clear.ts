import { renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crashPoint } from '../../config/config.js';
import { clearJournalPath } from '../paths.js';
import { MemoryConflictError, MemoryStorageError } from '../../shared/errors.js';
import { processAlive, readNoFollow, writePrivateFileAtomic } from '../../shared/private-files.js';
import { randomToken } from '../../shared/ids.js';
import { Connection } from '../db/connection.js';
import { REPLACEMENT_PREFIX, SIDE_SUFFIXES, damagedName, syncDir } from './files.js';
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

/** What a cleared Memory starts with: the next generation, the kept creation time, the new active thread. */
export interface ClearSeed {
  generation: number;
  createdAt: number;
  threadId: string;
  now: number;
}

/** The seed of a clear from what the old database still says (any part unreadable counts as absent). */
export function clearSeed(conn: Connection | null, now: number, threadId: string): ClearSeed {
  const basis = readClearBasis(conn);
  // A crafted database may hold the largest safe generation: the next one stays a safe integer.
  const generation = Math.min(basis.oldGeneration + 1, Number.MAX_SAFE_INTEGER);
  return { generation, createdAt: basis.createdAt ?? now, threadId, now };
}

/**
 * Deletes every thread, turn, job, candidate and item and writes the one meta row and one empty active
 * thread, in one transaction. Deleting the jobs and bumping the generation fences every old worker.
 */
export function clearInPlace(conn: Connection, input: ClearSeed): void {
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

/** The journal of a clear that replaces a damaged database: `.autopatch-j/clear-journal.json` (see paths). */
export const CLEAR_JOURNAL = basename(clearJournalPath(''));

interface ClearJournal {
  format: 'autopatch-j-clear';
  version: 1;
  pid: number;
  /** The new database, complete and synced, under its temp name (in the data folder). */
  temp: string;
  /** Where the damaged file goes: `memory.db.damaged-<timestamp>`, with its side files beside it. */
  aside: string;
  /** The suffixes moved aside, side files first ('' is the main file). */
  moves: string[];
}

/**
 * Replaces a damaged database for a clear, never deleting it, as one unit (issue "Safe hands", item 6): the
 * new database is built and synced in a temp file first (`build`); a journal then records what moves where;
 * under the old file's write lock (`lock`) the damaged file and its -wal/-shm/-journal are renamed to
 * `memory.db.damaged-<timestamp>…`, and the new file is renamed over `memory.db`. A crash at any rename is
 * finished at the next start from the journal (`resumeInterruptedClear`), which says where the old file went:
 * no crash point leaves a healthy empty Memory while the old data sits aside unannounced. A failure (not a
 * crash) undoes the renames so far and removes the temp file and journal, so the old state stays. Returns where
 * the damaged file went (null when there was no file).
 */
export function replaceDamagedDatabase(
  dbPath: string,
  now: number,
  build: (tempPath: string) => void,
  lock: () => (() => void) | null = () => null,
): string | null {
  const dir = dirname(dbPath);
  const temp = join(dir, `${REPLACEMENT_PREFIX}${process.pid}-${randomToken(8)}`);
  const journalPath = join(dir, CLEAR_JOURNAL);
  const done: [from: string, to: string][] = [];
  let release: (() => void) | null = null;
  let journaled = false;
  try {
    build(temp);
    release = lock();
    const aside = damagedName(dbPath, now);
    // Side files first: a new memory.db must never meet the old WAL.
    const moves = [...SIDE_SUFFIXES, ''].filter((suffix) => statSync(dbPath + suffix, { throwIfNoEntry: false }));
    const journal: ClearJournal = {
      format: 'autopatch-j-clear',
      version: 1,
      pid: process.pid,
      temp: basename(temp),
      aside: basename(aside),
      moves,
    };
    writePrivateFileAtomic(journalPath, `${JSON.stringify(journal)}\n`);
    journaled = true;
    crashPoint('clear:journal');
    moves.forEach((suffix, n) => {
      crashPoint(`clear:rename:${n}`);
      renameSync(dbPath + suffix, aside + suffix);
      done.push([dbPath + suffix, aside + suffix]);
    });
    // Released before the new file appears. The closing connection sees its file moved, so SQLite neither
    // checkpoints into it nor unlinks side files by their old names (which will belong to the new database).
    const releasing = release;
    release = null;
    releasing?.();
    crashPoint('clear:rename:new');
    renameSync(temp, dbPath);
    syncDir(dir);
    crashPoint('clear:journal-removal');
    rmSync(journalPath, { force: true });
    return moves.includes('') ? aside : null;
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
    if (journaled) rmSync(journalPath, { force: true });
    throw typedStorageError(error, 'clear could not replace the damaged database (nothing was changed)', dir);
  }
}

function readClearJournal(path: string, dbPath: string): ClearJournal | null {
  let text: string;
  try {
    text = readNoFollow(path).toString('utf8');
  } catch {
    return null;
  }
  try {
    const j = JSON.parse(text) as Partial<ClearJournal>;
    const asidePattern = new RegExp(`^${basename(dbPath).replace(/\./g, '\\.')}\\.damaged-\\d{8}T\\d{9}Z(?:-\\d+)?$`, 'u');
    if (j.format !== 'autopatch-j-clear' || j.version !== 1 || !Number.isSafeInteger(j.pid)) return null;
    if (typeof j.temp !== 'string' || !j.temp.startsWith(REPLACEMENT_PREFIX) || j.temp.includes('/')) return null;
    if (typeof j.aside !== 'string' || !asidePattern.test(j.aside)) return null;
    if (!Array.isArray(j.moves) || !j.moves.every((m) => m === '' || (SIDE_SUFFIXES as readonly string[]).includes(m))) return null;
    return j as ClearJournal;
  } catch {
    return null;
  }
}

/**
 * At start-up, before anything opens `memory.db`: a clear a crash interrupted is finished from its journal (the
 * rest of the damaged files move aside, the new database takes its place). Returns what to tell the person —
 * where the damaged database is now — or null when there was nothing to finish. A clear still running in a
 * live process is a conflict (retryable: try again), never a half-done state to open.
 */
export function resumeInterruptedClear(dbPath: string): string | null {
  const dir = dirname(dbPath);
  const journalPath = join(dir, CLEAR_JOURNAL);
  if (!statSync(journalPath, { throwIfNoEntry: false })) return null;
  const journal = readClearJournal(journalPath, dbPath);
  if (!journal) {
    throw new MemoryStorageError(`${journalPath} is not a clear journal autopatch-j wrote`, {
      fix: `move it aside (mv ${journalPath} ${journalPath}.aside) and run the command again`,
    });
  }
  if (journal.pid !== process.pid && processAlive(journal.pid)) {
    throw new MemoryConflictError(`a clear of this Memory is running in process ${journal.pid}; try again in a moment`);
  }
  const temp = join(dir, journal.temp);
  const aside = join(dir, journal.aside);
  try {
    if (statSync(temp, { throwIfNoEntry: false })) {
      for (const suffix of journal.moves) {
        if (statSync(dbPath + suffix, { throwIfNoEntry: false }) && !statSync(aside + suffix, { throwIfNoEntry: false })) {
          renameSync(dbPath + suffix, aside + suffix);
        }
      }
      renameSync(temp, dbPath);
      syncDir(dir);
    }
    rmSync(journalPath, { force: true });
  } catch (error) {
    throw typedStorageError(error, 'an interrupted clear could not be finished', dir);
  }
  return journal.moves.includes('')
    ? `a clear was interrupted (a crash) and was finished at this start: the damaged database is at ${aside}`
    : 'a clear was interrupted (a crash) and was finished at this start';
}
