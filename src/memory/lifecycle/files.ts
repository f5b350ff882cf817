import { closeSync, constants, fchmodSync, lstatSync, openSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStorageError } from '../../shared/errors.js';
import { PrivateFolderError, makePrivateFolder, processAlive, tempOwnerPid } from '../../shared/private-files.js';
import { typedStorageError } from '../db/storage-fault.js';

export { ensureGitignore, syncFolder as syncDir } from '../../shared/private-files.js';

/** Replacement databases a clear builds before renaming them into place: `.memory.db.new-<pid>-<random>`. */
export const REPLACEMENT_PREFIX = '.memory.db.new-';

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
 * Makes sure the folder exists, is a real folder (not a symbolic link) and, when created here, is 0700
 * whatever the umask: it holds the RAW conversation.
 */
export function ensurePrivateDir(dir: string): void {
  try {
    makePrivateFolder(dir);
  } catch (error) {
    if (error instanceof PrivateFolderError) {
      const link = lstatOrNull(dir)?.isSymbolicLink() === true;
      if (link) throw linkError(dir);
      throw new MemoryStorageError(`${dir} is not a folder`, {
        fix: `move the file ${dir} away and run the command again`,
        code: 'ENOTDIR',
      });
    }
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
    const pid = tempOwnerPid(name, prefix);
    if (pid === null || pid === process.pid || processAlive(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
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
