import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { DATA_DIR_NAME } from '../memory/paths.js';

/**
 * Race-safe access to files of the project for `/apply` and `/undo`: a path is opened component by component
 * without following any link, every folder and the file itself must be on the project's device, and the
 * opened file is checked to be a regular file inside the project. On Linux each step opens the next name
 * through the folder already opened (`/proc/self/fd/N/name`, the equivalent of openat), so a folder swapped
 * for a link after the check cannot redirect a write outside the project; elsewhere the same checks run on
 * paths, which narrows the window but cannot close it.
 */

/** Folders a patch never writes into: git's own data and autopatch-j's. */
export const PROTECTED_DIRS: ReadonlySet<string> = new Set(['.git', DATA_DIR_NAME]);

/** A path or file a patch may not touch, with a reason a person can read. */
export class ProjectPathError extends Error {
  override readonly name = 'ProjectPathError';
}

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** An opened folder of the project: what later opens, creations and renames go through. */
export class ProjectDir {
  private constructor(
    /** The folder's path as the project names it (for messages and the non-Linux fallback). */
    readonly path: string,
    readonly fd: number,
    readonly dev: number,
    readonly ino: number,
  ) {}

  /** Opens `name` inside `parent` (or `path` itself for the root); `shown` names it in messages. */
  static open(path: string, parent: ProjectDir | null, name: string | null, shown = path): ProjectDir {
    const through = parent && name !== null ? parent.child(name) : path;
    let fd: number;
    try {
      fd = openSync(through, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      let link = code === 'ELOOP';
      if (code === 'ENOTDIR') {
        try {
          link = lstatSync(through).isSymbolicLink();
        } catch {
          // Gone meanwhile: reported as not a folder.
        }
      }
      if (link) throw new ProjectPathError(`the folder ${shown} is a symbolic link; a patch never follows links`);
      if (code === 'ENOTDIR') throw new ProjectPathError(`${shown} is not a folder`);
      if (code === 'ENOENT') throw new ProjectPathError(`the folder ${shown} does not exist`);
      throw error;
    }
    const stat = fstatSync(fd);
    return new ProjectDir(path, fd, stat.dev, stat.ino);
  }

  /** The path through which `name` inside this folder is reached without re-resolving the folder's own path. */
  child(name: string): string {
    if (name.length === 0 || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
      throw new ProjectPathError(`'${name}' is not a plain file name`);
    return PROC_FD ? `/proc/self/fd/${this.fd}/${name}` : join(this.path, name);
  }

  /** Where the opened folder really is now (Linux), or its path elsewhere. */
  realPath(): string {
    return PROC_FD ? readlinkSync(`/proc/self/fd/${this.fd}`) : realpathSync(this.path);
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
  }
}

/** A project file opened for reading, with what it was when opened. */
export interface OpenedFile {
  /** The path relative to the project, with forward slashes. */
  rel: string;
  dir: ProjectDir;
  name: string;
  fd: number;
  dev: number;
  ino: number;
  size: number;
  mode: number;
  mtimeMs: number;
}

/** The project root opened as the first folder of every walk. */
export function openRoot(repoRoot: string): ProjectDir {
  return ProjectDir.open(realpathSync(repoRoot), null, null);
}

/**
 * Splits a project-relative path into folder names and a file name, refusing absolute paths, `..`, empty
 * components and the protected folders.
 */
export function projectPathParts(path: string): string[] {
  if (path.includes('\0')) throw new ProjectPathError('the path contains a NUL byte');
  if (isAbsolute(path) || /^[a-zA-Z]:[\\/]/.test(path))
    throw new ProjectPathError('absolute paths are not allowed; use a path relative to the repository');
  const parts = path.split(/[\\/]+/).filter((p) => p.length > 0 && p !== '.');
  if (parts.length === 0) throw new ProjectPathError('the path is empty');
  if (parts.includes('..')) throw new ProjectPathError('the path leaves the repository');
  const guarded = parts.find((p) => PROTECTED_DIRS.has(p));
  if (guarded !== undefined) throw new ProjectPathError(`the path is inside ${guarded}/, which a patch never changes`);
  return parts;
}

/**
 * Opens a project file for reading without following links anywhere on its path. Every folder must be a
 * real folder on the project's device, and the file a regular file on it whose real location is inside the
 * project. The caller owns the returned descriptors (close them with `closeOpened`).
 */
export function openProjectFile(root: ProjectDir, path: string): OpenedFile {
  const { dir, name, rel } = openFolderOf(root, path);
  const release = (): void => {
    if (dir !== root) dir.close();
  };
  let fd: number;
  try {
    fd = openSync(dir.child(name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    release();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new ProjectPathError('the file is a symbolic link; a patch never follows links');
    if (code === 'ENOENT') throw new ProjectPathError('cannot read the file (it does not exist)');
    if (code === 'EISDIR') throw new ProjectPathError('it is a folder, not a file');
    if (code === 'EACCES' || code === 'EPERM') throw new ProjectPathError('cannot read the file (permission denied)');
    throw error;
  }
  const stat = fstatSync(fd);
  const refuse = (why: string): never => {
    closeSync(fd);
    release();
    throw new ProjectPathError(`the file ${why}`);
  };
  if (!stat.isFile()) refuse('is not a regular file');
  if (stat.dev !== root.dev) refuse('is on another device (a mount point)');
  if (!insideRoot(root, dir)) refuse('is not inside the repository any more (a folder on its path was moved)');
  return { rel, dir, name, fd, dev: stat.dev, ino: stat.ino, size: stat.size, mode: stat.mode & 0o7777, mtimeMs: stat.mtimeMs };
}

/**
 * Opens the folder that holds a project-relative path, one component at a time without following links;
 * every folder must be on the project's device. Only the innermost folder stays open (the caller closes it
 * unless it is the root).
 */
export function openFolderOf(root: ProjectDir, path: string): { dir: ProjectDir; name: string; rel: string } {
  const parts = projectPathParts(path);
  let dir = root;
  try {
    for (let i = 0; i < parts.length - 1; i += 1) {
      const next = ProjectDir.open(join(root.path, ...parts.slice(0, i + 1)), dir, parts[i]!, parts.slice(0, i + 1).join('/'));
      if (dir !== root) dir.close();
      dir = next;
      if (dir.dev !== root.dev)
        throw new ProjectPathError(`the folder ${parts.slice(0, i + 1).join('/')} is on another device (a mount point)`);
    }
  } catch (error) {
    if (dir !== root) dir.close();
    throw error;
  }
  return { dir, name: parts[parts.length - 1]!, rel: parts.join('/') };
}

/** True when the opened folder is the root or lies inside it. */
export function insideRoot(root: ProjectDir, dir: ProjectDir): boolean {
  if (dir === root) return true;
  const real = dir.realPath();
  const rel = relative(root.realPath(), real);
  return rel.length > 0 && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).some((p) => PROTECTED_DIRS.has(p));
}

/** Reads a whole opened file. */
export function readOpened(file: OpenedFile): Buffer {
  const out = Buffer.allocUnsafe(file.size);
  let filled = 0;
  while (filled < file.size) {
    const n = readSync(file.fd, out, filled, file.size - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  if (filled !== file.size) throw new ProjectPathError('the file changed while it was read');
  // A file that grew while it was read is caught by the identity check before the rename.
  return out;
}

/** Closes what `openProjectFile` opened (its folder unless that is the root). */
export function closeOpened(file: OpenedFile, root: ProjectDir): void {
  try {
    closeSync(file.fd);
  } catch {
    // Already closed.
  }
  if (file.dir !== root) file.dir.close();
}

/** What is at a name inside an opened folder now, without following a link; null when nothing is. */
export function entryAt(dir: ProjectDir, name: string): { ino: number; dev: number; size: number; file: boolean } | null {
  try {
    const stat = lstatSync(dir.child(name));
    return { ino: stat.ino, dev: stat.dev, size: stat.size, file: stat.isFile() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
