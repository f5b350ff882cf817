import { spawnSync } from 'node:child_process';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';

/**
 * Whether a project's data folder (`.autopatch-j/`) is the user's own (issue "Safe hands", item 2). A folder
 * that arrives with `git clone` can hold anything — a planted link, a crafted `memory.db` full of "memories"
 * nobody said — so anything in it that is tracked by git, is a symbolic link, or belongs to another user makes
 * the whole folder untrusted: it is never followed, opened as the user's Memory or written to, and the reason
 * names the file and the command that moves it aside.
 */

export interface UntrustedData {
  /** The file or folder that cannot be trusted. */
  path: string;
  why: 'tracked' | 'link' | 'owner';
  /** For a person: what it is, that nothing of it is used or changed, and the command that moves it aside. */
  reason: string;
}

/** Every untrusted reason starts so: what a degraded Memory's help shows instead of the clear advice. */
export const UNTRUSTED_PREFIX = 'untrusted data folder: ';

/** True for a degraded reason that comes from `untrustedData`. */
export function isUntrustedReason(reason: string): boolean {
  return reason.startsWith(UNTRUSTED_PREFIX);
}

/** The `mv` command an untrusted reason gives (what a person runs to move the folder or file aside). */
export function moveAsideCommand(reason: string): string | null {
  return /mv '(?:[^']|'\\'')*' '(?:[^']|'\\'')*'/u.exec(reason)?.[0] ?? null;
}

/** Subfolders of the data folder whose entries are checked too (the ones autopatch-j writes into). */
const CHECKED_SUBFOLDERS = new Set(['exports', 'apply']);

function quoted(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

function lstatOrNull(path: string): import('node:fs').Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Null when the data folder (or its absence) can be trusted; else the first thing that cannot. */
export function untrustedData(repoRoot: string, dataDir: string): UntrustedData | null {
  const folder = lstatOrNull(dataDir);
  if (!folder) return null;
  const aside = `${dataDir}.untrusted`;
  const moveFolder = `mv ${quoted(dataDir)} ${quoted(aside)}`;
  if (folder.isSymbolicLink()) return link(dataDir, moveFolder);
  if (!folder.isDirectory()) return null;
  const uid = process.getuid?.();
  if (uid !== undefined && folder.uid !== uid) return owner(dataDir, folder.uid, moveFolder);
  const entries: string[] = [];
  try {
    for (const name of readdirSync(dataDir)) {
      entries.push(join(dataDir, name));
      if (CHECKED_SUBFOLDERS.has(name) && lstatOrNull(join(dataDir, name))?.isDirectory()) {
        for (const inner of readdirSync(join(dataDir, name))) entries.push(join(dataDir, name, inner));
      }
    }
  } catch {
    // An unreadable folder is a storage problem, reported where the Memory opens it.
    return null;
  }
  for (const path of entries) {
    const stat = lstatOrNull(path);
    if (!stat) continue;
    const moveEntry = `mv ${quoted(path)} ${quoted(`${path}.aside`)}`;
    if (stat.isSymbolicLink()) return link(path, moveEntry);
    if (uid !== undefined && stat.uid !== uid) return owner(path, stat.uid, moveEntry);
  }
  const tracked = trackedPath(repoRoot, `${basename(dataDir)}/`);
  if (tracked !== null) {
    const path = join(repoRoot, tracked);
    return {
      path,
      why: 'tracked',
      reason:
        `${UNTRUSTED_PREFIX}${tracked} is tracked by git: it came with the repository, not from your conversations, so nothing in ` +
        `${basename(dataDir)}/ is used as your Memory or changed. To start your own, move the folder aside: ` +
        `${moveFolder} (and stop tracking it: git rm -r --cached ${basename(dataDir)})`,
    };
  }
  return null;
}

function link(path: string, move: string): UntrustedData {
  return {
    path,
    why: 'link',
    reason:
      `${UNTRUSTED_PREFIX}${path} is a symbolic link; autopatch-j never follows links for its data (one could point anywhere), so ` +
      `nothing there is used as your Memory or changed. Move it aside: ${move}`,
  };
}

function owner(path: string, uid: number, move: string): UntrustedData {
  return {
    path,
    why: 'owner',
    reason:
      `${UNTRUSTED_PREFIX}${path} belongs to another user (uid ${uid}), so nothing there is used as your Memory or changed. ` +
      `If it is yours (made with sudo, say), take it back: sudo chown -R "$(id -un)" ${quoted(path)}; ` +
      `otherwise move it aside: ${move}`,
  };
}

/** The git folder of a work tree: `.git` itself, or where a `.git` file (worktree, submodule) points. */
function gitDir(repoRoot: string): string | null {
  const dotGit = join(repoRoot, '.git');
  const stat = lstatOrNull(dotGit);
  if (!stat) return null;
  if (stat.isDirectory()) return dotGit;
  if (!stat.isFile()) return null;
  try {
    const line = /^gitdir:\s*(.+)$/mu.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (!line) return null;
    return isAbsolute(line) ? line : resolve(repoRoot, line);
  } catch {
    return null;
  }
}

/**
 * The first path under `prefix` that git tracks in the work tree, or null. Read from the index itself (versions
 * 2–4, SHA-1 or SHA-256): in the usual index (v2/v3) a path is stored whole, so one byte search settles "no"
 * without parsing. An index this cannot read (a split index, an unknown version) is asked of `git ls-files`.
 */
export function trackedPath(repoRoot: string, prefix: string): string | null {
  const dir = gitDir(repoRoot);
  if (!dir) return null;
  let index: Buffer;
  try {
    index = readWhole(join(dir, 'index'));
  } catch {
    return null;
  }
  const found = indexPath(index, prefix);
  if (found !== 'unknown') return found;
  const git = spawnSync('git', ['-C', repoRoot, 'ls-files', '-z', '--', prefix], { encoding: 'utf8', timeout: 5_000 });
  if (git.status !== 0) return null;
  return git.stdout.split('\0').find((p) => p.length > 0) ?? null;
}

function readWhole(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY);
  try {
    const size = fstatSync(fd).size;
    const out = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const n = readSync(fd, out, filled, size - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return out.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/** The first path in a git index that starts with `prefix`, null when none does, 'unknown' when unreadable. */
export function indexPath(index: Buffer, prefix: string): string | null | 'unknown' {
  if (index.length < 12 || index.toString('latin1', 0, 4) !== 'DIRC') return 'unknown';
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return 'unknown';
  const needle = Buffer.from(prefix, 'utf8');
  if (version !== 4 && index.indexOf(needle) < 0 && index.indexOf('link', 12, 'latin1') < 0) return null;
  for (const hashSize of [20, 32]) {
    const found = scanIndex(index, version, hashSize, needle);
    if (found !== 'unknown') return found;
  }
  return 'unknown';
}

function scanIndex(index: Buffer, version: number, hashSize: number, needle: Buffer): string | null | 'unknown' {
  const count = index.readUInt32BE(8);
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  let found: string | null = null;
  for (let i = 0; i < count; i += 1) {
    const flagsAt = at + 40 + hashSize;
    if (flagsAt + 2 > index.length) return 'unknown';
    const flags = index.readUInt16BE(flagsAt);
    let p = flagsAt + 2;
    if (version >= 3 && (flags & 0x4000) !== 0) p += 2;
    let path: Buffer;
    if (version === 4) {
      let byte = index[p++] ?? 0;
      let strip = byte & 0x7f;
      while ((byte & 0x80) !== 0) {
        byte = index[p++] ?? 0;
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      const end = index.indexOf(0, p);
      if (end < 0 || strip > previous.length) return 'unknown';
      path = Buffer.concat([previous.subarray(0, previous.length - strip), index.subarray(p, end)]);
      at = end + 1;
    } else {
      const end = index.indexOf(0, p);
      if (end < 0) return 'unknown';
      const length = flags & 0xfff;
      if (length < 0xfff && end - p !== length) return 'unknown';
      path = index.subarray(p, end);
      // Entries are padded with 1–8 NUL bytes to a multiple of 8.
      at += Math.floor((end - at + 8) / 8) * 8;
    }
    if (found === null && path.length >= needle.length && path.subarray(0, needle.length).equals(needle)) found = path.toString('utf8');
    previous = path;
  }
  // Extensions, then the checksum: a split index keeps entries elsewhere ("link").
  while (at + 8 <= index.length - hashSize) {
    const signature = index.toString('latin1', at, at + 4);
    if (signature === 'link') return 'unknown';
    at += 8 + index.readUInt32BE(at + 4);
  }
  if (at !== index.length - hashSize) return 'unknown';
  return found;
}
