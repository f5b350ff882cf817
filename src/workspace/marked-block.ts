import {
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { DATA_DIR_NAME } from '../memory/paths.js';
import { randomToken } from '../shared/ids.js';

/**
 * Writing a file of the project that people review (AGENTS.md, an exported Markdown file): atomically (a
 * temp file created exclusively beside the target, fsynced, renamed over it), never through a link that
 * leaves the project, and — for a marked block — with every byte outside the block left as it was.
 */

/** A file the program will not write, with the reason a person can act on. */
export class FileRefusedError extends Error {
  override readonly name = 'FileRefusedError';
}

/** The two lines that delimit a block the program owns inside a file people also edit. */
export interface BlockMarkers {
  start: string;
  end: string;
}

function insideProject(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Folders the program never writes a user-named file into: its own data (the Memory, its backups) and git's. */
const PROTECTED_FOLDERS: readonly string[] = [DATA_DIR_NAME, '.git'];

/**
 * The protected folder `path` lies in, if any: a `.autopatch-j` or `.git` segment below the project root
 * (a nested project's or a submodule's counts too), or anywhere in a path outside the project.
 */
function protectedFolderOf(root: string, path: string): string | undefined {
  const segments = (insideProject(root, path) ? relative(root, path) : path).split(/[\\/]/);
  return segments.find((segment) => PROTECTED_FOLDERS.includes(segment));
}

/**
 * Where a write to `path` really lands. A link is followed only when it stays inside the project: AGENTS.md
 * → docs/AGENTS.md is written where it points, a link to a file elsewhere or to nothing is refused. A path
 * outside the project that the user named without a link is theirs. Nothing is ever written into
 * `.autopatch-j/` (the Memory database and its exports) or `.git/`, whether the path names them or a link
 * or a linked folder leads there: a Markdown file over memory.db would destroy every RAW turn.
 */
export function resolveWriteTarget(repoRoot: string, path: string): string {
  const root = realpathSync(repoRoot);
  const lexical = resolve(root, path);
  const named = protectedFolderOf(root, lexical);
  if (named) throw new FileRefusedError(`${path} is inside ${named}/, which the program does not write into; ${NOTHING_WRITTEN}`);
  let folder: string;
  try {
    folder = realpathSync(dirname(lexical));
  } catch {
    throw new FileRefusedError(`the folder of ${path} does not exist`);
  }
  let target = join(folder, basename(lexical));
  if (lstatOrNull(target)?.isSymbolicLink()) {
    try {
      target = realpathSync(target);
    } catch {
      throw new FileRefusedError(`${path} is a link to nothing; remove it or point it at a file inside the project`);
    }
  }
  if (insideProject(root, lexical) && !insideProject(root, target)) {
    throw new FileRefusedError(`${path} leads outside the project (to ${target}); it is not followed`);
  }
  const reached = protectedFolderOf(root, target);
  if (reached) throw new FileRefusedError(`${path} leads into ${reached}/ (to ${target}); it is not followed: ${NOTHING_WRITTEN}`);
  const kind = lstatOrNull(target);
  if (kind && !kind.isFile()) throw new FileRefusedError(`${path} is not a regular file`);
  return target;
}

const NOTHING_WRITTEN = 'nothing was written, choose a file elsewhere in the project';

function lstatOrNull(path: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function fsyncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename is in place, only its durability is weaker.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Identity of what was read, to notice an edit made while the new content was being written. */
function identityOf(path: string): string {
  const found = statSync(path, { throwIfNoEntry: false });
  return found ? `${found.ino}:${found.size}:${found.mtimeMs}` : 'absent';
}

/**
 * Replaces `target` (a real path, see resolveWriteTarget) with `bytes`: a temp file created exclusively
 * (O_EXCL, no-follow) in the same folder with the old file's mode, every byte written and fsynced, then
 * renamed over the target. `expected` is the identity read before: a file changed since is not replaced.
 */
export function writeFileAtomically(target: string, bytes: Buffer, expected?: string): void {
  const dir = dirname(target);
  const old = statSync(target, { throwIfNoEntry: false });
  const temp = join(dir, `.${basename(target)}.autopatch-j-${process.pid}-${randomToken(10)}.tmp`);
  const fd = openSync(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o666);
  let renamed = false;
  try {
    try {
      if (old) fchmodSync(fd, old.mode & 0o7777);
      let offset = 0;
      while (offset < bytes.length) {
        const written = writeSync(fd, bytes, offset, bytes.length - offset);
        if (written <= 0) throw new Error(`short write: ${offset} of ${bytes.length} bytes`);
        offset += written;
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (expected !== undefined && identityOf(target) !== expected) {
      throw new FileRefusedError(`${basename(target)} changed while it was being updated; nothing was written, run the command again`);
    }
    renameSync(temp, target);
    renamed = true;
    fsyncFolder(dir);
  } finally {
    if (!renamed) {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone.
      }
    }
  }
}

/** What an update of a marked block did. */
export interface BlockUpdate {
  path: string;
  /** False when the file already held exactly this block: nothing was written. */
  changed: boolean;
  /** True when the file did not exist and was created. */
  created: boolean;
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Where `marker` stands alone on a line (spaces or tabs around it allowed): a marker quoted inside a
 * sentence ("the block sits between `<!-- …:start -->` and …") is text of the file, not the block.
 */
function markerLines(haystack: Buffer, marker: Buffer): number[] {
  const out: number[] = [];
  for (let at = haystack.indexOf(marker); at >= 0; at = haystack.indexOf(marker, at + marker.length)) {
    let before = at - 1;
    while (before >= 0 && (haystack[before] === SPACE || haystack[before] === TAB)) before -= 1;
    let after = at + marker.length;
    while (after < haystack.length && (haystack[after] === SPACE || haystack[after] === TAB || haystack[after] === CR)) after += 1;
    if ((before < 0 || haystack[before] === LF) && (after >= haystack.length || haystack[after] === LF)) out.push(at);
  }
  return out;
}

/**
 * What goes between the markers: the text itself, or made from the block's current text (its lines joined
 * with `\n`; null when the file has no block yet), for a block that merges what it already holds.
 */
export type BlockBody = string | ((current: string | null) => string);

/** The text between the markers, line ends as `\n`; a block that is not UTF-8 text is refused. */
function blockText(inner: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inner);
  } catch {
    throw new FileRefusedError('the marked block is not UTF-8 text; fix it by hand, or delete it to have it written again');
  }
  // The rest of the start marker's line and the start of the end marker's line are the markers'.
  return text
    .replace(/\r\n/g, '\n')
    .replace(/^[ \t\r]*\n/, '')
    .replace(/\n[ \t]*$/, '');
}

/**
 * The file's bytes with the marked block set to `body`. Bytes outside the block stay exactly as they were;
 * without a block, one is appended after a blank line. Only markers that stand alone on a line count. The
 * block's lines end like the file's (CRLF or LF).
 */
export function withMarkedBlock(existing: Buffer | null, markers: BlockMarkers, body: BlockBody): Buffer {
  const text = existing ?? Buffer.alloc(0);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const blockOf = (current: string | null): Buffer => {
    const lines = typeof body === 'string' ? body : body(current);
    return Buffer.from([markers.start, ...lines.split('\n'), markers.end].join(eol), 'utf8');
  };
  const starts = markerLines(text, Buffer.from(markers.start, 'utf8'));
  const ends = markerLines(text, Buffer.from(markers.end, 'utf8'));
  if (starts.length === 0 && ends.length === 0) {
    // Appended after a blank line; an empty file gets the block alone.
    const tail = text.subarray(Math.max(0, text.length - 2 * eol.length)).toString('latin1');
    const gap = text.length === 0 || tail === eol + eol ? '' : tail.endsWith(eol) ? eol : eol + eol;
    return Buffer.concat([text, Buffer.from(gap), blockOf(null), Buffer.from(eol)]);
  }
  if (starts.length !== 1 || ends.length !== 1 || ends[0]! < starts[0]!) {
    throw new FileRefusedError(
      `the file has ${starts.length} '${markers.start}' and ${ends.length} '${markers.end}' line(s) ` +
        '(expected one of each, start first); fix the block by hand, or delete it to have it written again',
    );
  }
  const inner = text.subarray(starts[0]! + Buffer.byteLength(markers.start), ends[0]!);
  const end = ends[0]! + Buffer.byteLength(markers.end);
  return Buffer.concat([text.subarray(0, starts[0]!), blockOf(blockText(inner)), text.subarray(end)]);
}

/**
 * Sets the marked block of the project file `path` (created when missing). Idempotent: when the file
 * already holds this block, nothing is written and its modification time stays. A `body` function is
 * called again with the newer block when someone saved the file meanwhile.
 */
export function updateMarkedBlock(repoRoot: string, path: string, markers: BlockMarkers, body: BlockBody): BlockUpdate {
  const target = resolveWriteTarget(repoRoot, path);
  for (let attempt = 1; ; attempt += 1) {
    const before = identityOf(target);
    const existing = before === 'absent' ? null : readFileSync(target);
    const next = withMarkedBlock(existing, markers, body);
    if (existing && existing.equals(next)) return { path: target, changed: false, created: false };
    try {
      writeFileAtomically(target, next, before);
      return { path: target, changed: true, created: existing === null };
    } catch (error) {
      // Someone saved the file meanwhile: read their version and apply the block to it.
      if (!(error instanceof FileRefusedError) || attempt >= 3) throw error;
    }
  }
}

/** Writes a whole file (`--out`): resolved like a block's file, atomically, and not at all when it already holds these bytes. */
export function writeProjectFile(repoRoot: string, path: string, bytes: Buffer): BlockUpdate {
  const target = resolveWriteTarget(repoRoot, path);
  const before = identityOf(target);
  if (before !== 'absent' && readFileSync(target).equals(bytes)) return { path: target, changed: false, created: false };
  writeFileAtomically(target, bytes, before);
  return { path: target, changed: true, created: before === 'absent' };
}
