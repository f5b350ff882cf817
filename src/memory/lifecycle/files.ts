import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryStorageError } from '../../shared/errors.js';
import { typedStorageError } from '../db/storage-fault.js';

/** The files SQLite keeps next to a database. */
export const SIDE_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

function lstatOrNull(path: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function linkError(path: string): MemoryStorageError {
  return new MemoryStorageError(
    `${path} is a symbolic link; autopatch-j does not follow links for its data (they could point outside the project)`,
    { fix: `remove the link (rm ${path}) and run the command again`, code: 'ELOOP' },
  );
}

/**
 * The data folder ignores itself in git (it holds the RAW conversation): whoever opens Memory first — the
 * CLI, the MCP server or a library user — writes `.gitignore` with `*` when it is missing.
 */
export function ensureGitignore(dir: string): void {
  let fd: number | null = null;
  try {
    // O_EXCL: whatever is there already (a file of the user's, or a link pointing anywhere) is left alone.
    fd = openSync(join(dir, '.gitignore'), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    writeSync(fd, '# autopatch-j data (RAW conversations): never commit\n*\n');
  } catch {
    // Already there, or a read-only folder (which keeps the data out of commits made from here anyway).
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Makes sure the folder exists, is a real folder (not a symbolic link) and, when created here, is 0700
 * whatever the umask: it holds the RAW conversation.
 */
export function ensurePrivateDir(dir: string): void {
  try {
    const found = lstatOrNull(dir);
    if (found?.isSymbolicLink()) throw linkError(dir);
    if (found && !found.isDirectory()) {
      throw new MemoryStorageError(`${dir} is not a folder`, {
        fix: `move the file ${dir} away and run the command again`,
        code: 'ENOTDIR',
      });
    }
    if (found) return;
    mkdirSync(dirname(dir), { recursive: true });
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another process created it at the same moment; check what it is.
      ensurePrivateDir(dir);
      return;
    }
    chmodSync(dir, 0o700);
  } catch (error) {
    throw typedStorageError(error, `cannot use ${dir}`, dir);
  }
}

/** Refuses a database path (or one of its side files) that is a symbolic link or not a regular file. */
export function refuseLinks(dbPath: string): void {
  for (const path of [dbPath, ...SIDE_SUFFIXES.map((s) => dbPath + s)]) {
    const found = lstatOrNull(path);
    if (!found) continue;
    if (found.isSymbolicLink()) throw linkError(path);
    if (!found.isFile()) {
      throw new MemoryStorageError(`${path} is not a regular file`, { fix: `move ${path} away and run the command again`, code: 'EISDIR' });
    }
  }
}

/**
 * Creates an empty file readable by its owner only (0600 whatever the umask), refusing to follow a link.
 * Returns false when it already exists.
 */
export function createPrivateFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Makes a rename or link durable; some file systems refuse fsync on a folder, which is fine. */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Not supported here: the directory entry is already in place, only its durability is weaker.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes private working folders and files (`.verify-<pid>-…`, `.memory.db.new-<pid>-…`) left by processes that no longer run. */
export function removeStaleWorkDirs(dir: string, prefix: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `memory.db.damaged-20270115T080000000Z` (with `-2`, `-3`, … when taken). */
export function damagedName(dbPath: string, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('.', '');
  for (let n = 1; ; n += 1) {
    const candidate = `${dbPath}.damaged-${stamp}${n === 1 ? '' : `-${n}`}`;
    if ([candidate, ...SIDE_SUFFIXES.map((s) => candidate + s)].every((p) => lstatOrNull(p) === null)) return candidate;
  }
}
