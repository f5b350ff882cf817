import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { untrustedData } from '../../shared/data-trust.js';
import { TEMP_PREFIX } from '../../shared/private-files.js';
import { EXPORT_TEMP_PREFIX } from './export.js';
import { MemoryStorageError, describeError } from '../../shared/errors.js';
import type { IdGenerator } from '../../shared/ids.js';
import type { MetaSeed } from './seed.js';
import { Connection } from '../db/connection.js';
import { closedCleanSinceVerified, forgetCleanClose } from './clean-close.js';
import { REPLACEMENT_PREFIX, createPrivateFile, ensureGitignore, ensurePrivateDir, refuseLinks, removeStaleWorkDirs } from './files.js';
import { SCHEMA_SQL, SCHEMA_VERSION } from '../db/schema.js';
import { writeSeedRows } from './seed.js';
import { IMPORT_PREFIX } from './import.js';
import { markTermsCurrent } from '../db/term-format.js';
import { bootstrapProblem, isBlank, verifyBootstrap } from './verify.js';
import { resumeInterruptedClear } from './clear.js';
import { damageReason, isDamage, typedStorageError } from '../db/storage-fault.js';

/**
 * Outcome of opening `memory.db`: a verified read-write connection, or an explicit degraded state (M-2.4)
 * whose connection, when there is one, is read-only on a private snapshot so nothing in the project's
 * files changes. A database that cannot be reached at all (permissions, full disk, locks, links) is
 * neither: `bootstrap` throws MemoryStorageError.
 */
export type BootstrapResult = (
  | { state: 'healthy'; conn: Connection; created: boolean; warnings: string[] }
  | { state: 'degraded'; reason: string; conn: Connection | null; warnings: string[]; untrusted?: boolean }
) & {
  /** What the person should hear at this start (an interrupted clear that was finished, and where the old file is). */
  notices?: string[];
};

/** Private folders where an existing database is verified read-only: `.verify-<pid>-<random>`. */
const VERIFY_PREFIX = '.verify-';

/** A verification is repeated when a live writer changed the files meanwhile, at most this often. */
const VERIFY_ATTEMPTS = 3;

interface OpenOptions {
  busyTimeoutMs?: number;
  /** Run quick_check and foreign_key_check (false only for a file unchanged since a verified clean close). */
  physical?: boolean;
}

/**
 * Create `memory.db` when absent, otherwise verify it (M-2.2, M-2.3). An existing database is verified
 * through a read-only connection on a private snapshot (a hard link of the file plus a copy of its WAL), so
 * a database that fails verification is left exactly as found, side files included: no repairing DDL, no
 * seeding, no checkpoint, no new -wal/-shm. WAL is switched on only after success.
 */
export function bootstrap(dbPath: string, now: number, ids: IdGenerator, seed?: MetaSeed, options: OpenOptions = {}): BootstrapResult {
  const dir = dirname(dbPath);
  // Issue "Safe hands", item 2: a data folder that came with the repository (tracked by git), holds a link or
  // belongs to another user is never opened, followed or written: degraded, with the way out in the reason.
  const untrusted = untrustedData(dirname(dir), dir);
  if (untrusted) return { state: 'degraded', reason: untrusted.reason, conn: null, warnings: [], untrusted: true };
  // Before anything opens memory.db: a clear a crash interrupted is finished, and the start says so.
  const resumed = statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? resumeInterruptedClear(dbPath) : null;
  const result = openDatabase(dbPath, now, ids, seed, options);
  if (resumed !== null) {
    result.warnings.unshift(resumed);
    result.notices = [resumed];
  }
  return result;
}

function openDatabase(dbPath: string, now: number, ids: IdGenerator, seed: MetaSeed | undefined, options: OpenOptions): BootstrapResult {
  const dir = dirname(dbPath);
  ensurePrivateDir(dir);
  ensureGitignore(dir);
  removeStaleWorkDirs(dir, VERIFY_PREFIX);
  removeStaleWorkDirs(dir, REPLACEMENT_PREFIX);
  // A RAW copy an import killed mid-way left behind (it may have committed before its cleanup).
  removeStaleWorkDirs(dir, IMPORT_PREFIX);
  // What processes killed mid-write left (issue "Safe hands", item 6): export and atomic-write temp files.
  removeStaleWorkDirs(dir, TEMP_PREFIX);
  removeStaleWorkDirs(join(dir, 'exports'), EXPORT_TEMP_PREFIX);
  let created: boolean;
  try {
    refuseLinks(dbPath);
    created = createPrivateFile(dbPath);
  } catch (error) {
    throw typedStorageError(error, `cannot use ${dbPath}`, dir);
  }
  let physical = created || !closedCleanSinceVerified(dbPath);
  if (!physical) {
    // Unchanged since a verified clean close: no snapshot needed, the file is opened where it is and only
    // the logical checks run. Should they fail (the stamp lied), the full snapshot verification decides.
    const direct = openUnchanged(dbPath, options);
    // This session may change the file, and a stamp that lied is worth nothing: either way it goes.
    forgetCleanClose(dbPath);
    if (direct) return { state: 'healthy', conn: direct, created: false, warnings: [] };
    physical = true;
  }
  for (let attempt = 0; attempt < VERIFY_ATTEMPTS; attempt += 1) {
    if (!created) {
      const verdict = verifyReadOnly(dbPath, { ...options, physical: physical || attempt > 0 });
      if (verdict.kind === 'damaged') return { state: 'degraded', reason: verdict.reason, conn: verdict.conn, warnings: [] };
      if (verdict.kind === 'sound') {
        const opened = openVerified(dbPath, options);
        if (opened) {
          // This session may change the file: only its own clean close stamps it again.
          forgetCleanClose(dbPath);
          return { state: 'healthy', conn: opened, created: false, warnings: [] };
        }
        continue;
      }
    }
    const initialized = openBlank(dbPath, now, ids, seed ?? { generation: 1, createdAt: now }, options);
    if (initialized) return { state: 'healthy', conn: initialized.conn, created: initialized.created, warnings: initialized.warnings };
    created = false;
  }
  const verdict = verifyReadOnly(dbPath, options);
  if (verdict.kind === 'damaged') return { state: 'degraded', reason: verdict.reason, conn: verdict.conn, warnings: [] };
  throw typedStorageError(new Error('the database kept changing while it was verified'), `cannot open ${dbPath}`, dir);
}

type Verdict = { kind: 'sound' } | { kind: 'blank' } | { kind: 'damaged'; reason: string; conn: Connection | null };

/** Size, time and inode of the database and its WAL: when they move, a live writer was at work. */
function fingerprint(dbPath: string): string {
  const parts: string[] = [];
  for (const path of [dbPath, `${dbPath}-wal`]) {
    const found = statSync(path, { throwIfNoEntry: false });
    parts.push(found ? `${found.ino}:${found.size}:${found.mtimeMs}` : '-');
  }
  return parts.join('|');
}

/** The OS must let us read the file; otherwise it is a permission problem, not damage. */
function checkReadable(dbPath: string): void {
  const fd = openSync(dbPath, constants.O_RDONLY | constants.O_NOFOLLOW);
  closeSync(fd);
}

/**
 * Verifies an existing database without changing any of its files: a read-only connection on a hard link
 * (or copy) of the file in a private folder, with a copy of the WAL, so SQLite's WAL recovery, its shared
 * memory file and any checkpoint stay in that folder. A damage verdict is trusted only when the files did
 * not change meanwhile (a live writer's checkpoint can make a snapshot look inconsistent).
 */
function verifyReadOnly(dbPath: string, options: OpenOptions): Verdict {
  const dir = dirname(dbPath);
  for (let attempt = 1; ; attempt += 1) {
    let before: string;
    let work: string;
    try {
      checkReadable(dbPath);
      before = fingerprint(dbPath);
      work = mkdtempSync(join(dir, `${VERIFY_PREFIX}${process.pid}-`));
    } catch (error) {
      throw typedStorageError(error, `cannot read ${dbPath}`, dir);
    }
    const snapshot = join(work, 'memory.db');
    let conn: Connection | null = null;
    try {
      try {
        linkSync(dbPath, snapshot);
      } catch {
        copyFileSync(dbPath, snapshot);
      }
      const wal = statSync(`${dbPath}-wal`, { throwIfNoEntry: false });
      if (wal && wal.size > 0) copyFileSync(`${dbPath}-wal`, `${snapshot}-wal`);
      conn = Connection.open(snapshot, { readonly: true, fileMustExist: true, ...options });
      conn.onClose(() => rmSync(work, { recursive: true, force: true }));
      if (isBlank(conn)) {
        conn.close();
        return { kind: 'blank' };
      }
      const problem = bootstrapProblem(conn, { physical: options.physical !== false });
      if (problem === null) {
        conn.close();
        return { kind: 'sound' };
      }
      if (attempt < VERIFY_ATTEMPTS && fingerprint(dbPath) !== before) {
        conn.close();
        continue;
      }
      return { kind: 'damaged', reason: problem.reason, conn };
    } catch (error) {
      if (isDamage(error) && (attempt >= VERIFY_ATTEMPTS || fingerprint(dbPath) === before)) {
        if (!conn) rmSync(work, { recursive: true, force: true });
        return { kind: 'damaged', reason: damageReason(error), conn };
      }
      if (conn) conn.close();
      else rmSync(work, { recursive: true, force: true });
      if (isDamage(error)) continue;
      throw typedStorageError(error, `cannot read ${dbPath}`, dir);
    }
  }
}

/** Opens the verified database read-write; null when it was replaced since the verification. */
function openVerified(dbPath: string, options: OpenOptions): Connection | null {
  let conn: Connection | null = null;
  try {
    conn = Connection.open(dbPath, { fileMustExist: true, ...options });
    conn.pinFile(dbPath);
    const version = conn.db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION) {
      conn.close();
      return null;
    }
    if (String(conn.db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') {
      conn.db.pragma('journal_mode = WAL');
    }
    return conn;
  } catch (error) {
    conn?.close();
    if (isDamage(error)) return null;
    throw typedStorageError(error, `cannot open ${dbPath}`, dirname(dbPath));
  }
}

/**
 * Opens a file unchanged since a verified clean close in place and runs the logical checks (catalog, meta,
 * active thread) on it; null when any fails, so the caller falls back to the snapshot verification. Nothing
 * is written: only a file whose header already says WAL is opened (no journal mode is switched, and the
 * stamp is never trusted beside a rollback journal), and the empty WAL the reads create is removed when the
 * connection closes.
 */
function openUnchanged(dbPath: string, options: OpenOptions): Connection | null {
  if (!hasWalHeader(dbPath)) return null;
  let conn: Connection | null = null;
  try {
    conn = Connection.open(dbPath, { fileMustExist: true, ...options });
    const wal = String(conn.db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
    if (wal && bootstrapProblem(conn, { physical: false }) === null) {
      conn.pinFile(dbPath);
      return conn;
    }
  } catch (error) {
    if (!isDamage(error)) {
      conn?.close();
      throw typedStorageError(error, `cannot open ${dbPath}`, dirname(dbPath));
    }
  }
  conn?.close();
  return null;
}

/** Bytes 18 and 19 of the SQLite header are 2 for a database in WAL mode. */
function hasWalHeader(dbPath: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(dbPath, constants.O_RDONLY | constants.O_NOFOLLOW);
    const header = Buffer.alloc(20);
    return readSync(fd, header, 0, 20, 0) === 20 && header[18] === 2 && header[19] === 2;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Initializes a new or blank database; null when it turned out not blank (another process won). */
function openBlank(
  dbPath: string,
  now: number,
  ids: IdGenerator,
  seed: MetaSeed,
  options: OpenOptions,
): { conn: Connection; created: boolean; warnings: string[] } | null {
  const warnings: string[] = [];
  let conn: Connection | null = null;
  try {
    conn = Connection.open(dbPath, { fileMustExist: true, ...options });
    conn.pinFile(dbPath);
    const created = isBlank(conn) && initializeBlank(conn, now, ids, seed);
    if (created) deleteLegacyJson(dbPath, warnings);
    if (verifyBootstrap(conn) !== null) {
      conn.close();
      return null;
    }
    if (String(conn.db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') {
      conn.db.pragma('journal_mode = WAL');
    }
    return { conn, created, warnings };
  } catch (error) {
    conn?.close();
    if (isDamage(error)) return null;
    throw typedStorageError(error, `cannot create ${dbPath}`, dirname(dbPath));
  }
}

/**
 * Builds a fresh database (schema, meta with `seed`, one active thread) in a new file at `path`, for a
 * clear that replaces a damaged file: the file is complete and synced before anything is renamed.
 */
export function buildFreshDatabase(path: string, now: number, ids: IdGenerator, seed: MetaSeed): void {
  if (!createPrivateFile(path)) throw new MemoryStorageError(`${path} already exists`, { code: 'EEXIST' });
  const conn = Connection.open(path, { fileMustExist: true });
  try {
    initializeBlank(conn, now, ids, seed);
    const problem = verifyBootstrap(conn);
    if (problem !== null) throw new MemoryStorageError(`the new database failed verification: ${problem}`);
  } finally {
    conn.close();
  }
  // The commit already synced (synchronous=FULL); this covers file systems that need an explicit sync.
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Creates schema, meta and the one active thread in one transaction; false when another process won. */
function initializeBlank(conn: Connection, now: number, ids: IdGenerator, seed: MetaSeed): boolean {
  return conn.immediate(() => {
    // Re-check under the write lock: two processes may both have seen an empty file.
    if (!isBlank(conn)) return false;
    conn.db.exec(SCHEMA_SQL);
    writeSeedRows(conn, { ...seed, threadId: ids('thread'), now });
    conn.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    markTermsCurrent(conn);
    return true;
  });
}

/** M-2.6: the legacy JSON store is deleted unread on first initialization; a failed delete is visible. */
function deleteLegacyJson(dbPath: string, warnings: string[]): void {
  const legacy = join(dirname(dbPath), 'memory.json');
  if (!existsSync(legacy)) return;
  try {
    rmSync(legacy, { force: true, recursive: false });
  } catch (error) {
    warnings.push(`could not delete legacy ${legacy}: ${describeError(error)}`);
  }
}
