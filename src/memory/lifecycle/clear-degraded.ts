import { existsSync } from 'node:fs';
import type { IdGenerator } from '../../shared/ids.js';
import { Connection } from '../db/connection.js';
import { buildFreshDatabase } from './bootstrap.js';
import { type ClearSeed, clearInPlace, holdWriteLock, replaceDamagedDatabase } from './clear.js';
import { bootstrapProblem } from './verify.js';

/**
 * `/memory clear --confirm` on a degraded Memory (M-10.3), whose connection (`conn`, closed here) is a
 * read-only snapshot: rows-only damage is emptied in place through a read-write connection; a broken schema
 * or an unreadable file is replaced by a new database built in a temp file, and the damaged file is kept
 * aside (`movedAside`). The caller opens the database again afterwards, whatever happened.
 */
export function clearDegraded(input: {
  dbPath: string;
  conn: Connection | null;
  seed: ClearSeed;
  ids: IdGenerator;
  busyTimeoutMs: number | undefined;
}): { recreated: boolean; movedAside: string | null } {
  const { dbPath, conn, seed, busyTimeoutMs } = input;
  const dataOnly = conn !== null && isSoundSchema(conn);
  conn?.close();
  if (dataOnly && clearDataOnlyInPlace(dbPath, seed, busyTimeoutMs)) return { recreated: false, movedAside: null };
  const { generation, createdAt, now } = seed;
  const movedAside = replaceDamagedDatabase(
    dbPath,
    now,
    (temp) => buildFreshDatabase(temp, now, input.ids, { generation, createdAt }),
    // A live session (WAL mode) always has a -shm file; without one there is no writer to wait for.
    () => (existsSync(`${dbPath}-shm`) ? holdWriteLock(dbPath, busyTimeoutMs) : null),
  );
  return { recreated: true, movedAside };
}

/** Empties a database whose schema is sound in place; false when it is not sound after all. */
function clearDataOnlyInPlace(dbPath: string, seed: ClearSeed, busyTimeoutMs: number | undefined): boolean {
  const rw = Connection.open(dbPath, { fileMustExist: true, busyTimeoutMs });
  try {
    rw.pinFile(dbPath);
    if (!isSoundSchema(rw)) return false;
    clearInPlace(rw, seed);
    return true;
  } finally {
    rw.close();
  }
}

/** True when the schema is sound, so a clear can empty the database in place. */
function isSoundSchema(conn: Connection): boolean {
  try {
    const problem = bootstrapProblem(conn);
    return problem === null || problem.dataOnly;
  } catch {
    return false;
  }
}
