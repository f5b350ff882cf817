import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { randomToken } from './ids.js';

/**
 * Files autopatch-j keeps for itself (the data folder `.autopatch-j/`, journals, temp files): folders are made
 * 0700 and must be real folders, temp files are created exclusively without following a link (O_EXCL |
 * O_NOFOLLOW) and replace their target by rename, so a planted link is never written through.
 */

/** A folder of autopatch-j's own that is a link or not a folder. */
export class PrivateFolderError extends Error {
  override readonly name = 'PrivateFolderError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** Temp files of `writePrivateFileAtomic`: `.tmp-<pid>-<random>.tmp`, removed at start when their process is gone. */
export const TEMP_PREFIX = '.tmp-';

/** True while a process with this id runs (or exists under another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The id of the process that made a temp name `<prefix><pid>-…`, or null when the name is not one. Callers
 * remove such a name only when that process no longer runs.
 */
export function tempOwnerPid(name: string, prefix: string): number | null {
  if (!name.startsWith(prefix)) return null;
  const pid = Number(name.slice(prefix.length).split('-')[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Creates the folder 0700 (whatever the umask) when missing; refuses a link or a file in its place. */
export function makePrivateFolder(dir: string): void {
  let found: ReturnType<typeof lstatSync> | null = null;
  try {
    found = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (found?.isSymbolicLink())
    throw new PrivateFolderError(dir, `${dir} is a symbolic link; autopatch-j does not follow links for its data`);
  if (found && !found.isDirectory()) throw new PrivateFolderError(dir, `${dir} is not a folder`);
  if (found) return;
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    makePrivateFolder(dir);
    return;
  }
  chmodSync(dir, 0o700);
}

/**
 * The data folder ignores itself in git (it holds the RAW conversation): whoever creates or opens it first —
 * the CLI, the MCP server, a library user, an apply — writes `.gitignore` with `*` when it is missing.
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

/** The project's data folder, made 0700 with its `.gitignore` when missing. */
export function makeDataFolder(dir: string): void {
  makePrivateFolder(dir);
  ensureGitignore(dir);
}

/** Creates a new file exclusively (never through a link), readable by its owner only; returns its descriptor. */
export function createExclusive(path: string, mode = 0o600): number {
  const fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, mode);
  try {
    fchmodSync(fd, mode);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Reads a whole file of autopatch-j's own without following a link at its name (ELOOP then). */
export function readNoFollow(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes every byte, continuing short writes. */
export function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** Makes a rename or creation in `dir` durable; some file systems refuse fsync on a folder, which is fine. */
export function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // Not supported here: the entry is in place, only its durability is weaker.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Replaces `path` with `bytes` atomically: a temp file beside it, created exclusively and fsynced, renamed
 * over it (a link at `path` is replaced, never followed), then the folder is synced. `durable: false` skips
 * both syncs where losing the newest version to a power cut is harmless.
 */
export function writePrivateFileAtomic(path: string, bytes: Buffer | string, options: { durable?: boolean } = {}): void {
  const durable = options.durable !== false;
  const dir = dirname(path);
  const temp = join(dir, `${TEMP_PREFIX}${process.pid}-${randomToken(10)}.tmp`);
  const fd = createExclusive(temp);
  let renamed = false;
  try {
    try {
      writeAll(fd, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
    renamed = true;
    if (durable) syncFolder(dir);
  } finally {
    if (!renamed) {
      try {
        unlinkSync(temp);
      } catch {
        // Never created or already gone.
      }
    }
  }
}
