import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SKIPPED_DIRS } from './repo-paths.js';

/**
 * The project's instruction files (AGENTS.md and its siblings from other agents), read live for every
 * request. They are source files of the repository, not Memory (M-1.2): they go to ordinary and repair
 * requests alike and have their own budget, apart from the Memory budgets of M-8.
 */

/** Characters of the whole instruction block in a request: headers, file text and cut notes together. */
export const INSTRUCTION_BUDGET = 8_000;

/** Read at the project root, in this order, when present. */
export const ROOT_INSTRUCTION_FILES: readonly string[] = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.github/copilot-instructions.md'];

/** Nested AGENTS.md files between the root and the start folder beyond this many: the nearest are kept. */
const MAX_NESTED = 8;
/** Bytes read of one file: the budget in any script (at most 4 bytes a character) with room to spare. */
const READ_LIMIT = 64 * 1024;
/** The least text a file keeps in the block; with less room, the last nested files are left out. */
const MIN_SHARE = 200;

const INTRO =
  "Project instruction files: this repository's own files (AGENTS.md and the like), read from disk for this " +
  'request. They are source, not Memory. Follow them for work in this project; the current user instruction wins.';

/** One instruction file that went into the block. */
export interface InstructionFile {
  /** Relative to the project root, with `/`. */
  path: string;
  /** Size on disk. */
  bytes: number;
  /** Characters of text read (a file larger than 64 KiB is read only that far). */
  chars: number;
  /** Characters of it in the block. */
  shown: number;
  cut: boolean;
}

/** A candidate file that was present but not read, and why. */
export interface SkippedInstructionFile {
  path: string;
  reason: string;
}

export interface ProjectInstructions {
  files: InstructionFile[];
  skipped: SkippedInstructionFile[];
  /** The block for the system message; '' when no file was read. */
  text: string;
}

interface ReadFile {
  path: string;
  bytes: number;
  text: string;
  truncatedRead: boolean;
}

function inside(root: string, path: string): string | null {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel;
}

/** The candidate files, root ones first, then AGENTS.md of each folder from the root down to `startDir`. */
function candidates(root: string, startDir: string): { paths: string[]; tooMany: string[] } {
  const paths = [...ROOT_INSTRUCTION_FILES];
  let start: string;
  try {
    start = realpathSync(startDir);
  } catch {
    return { paths, tooMany: [] };
  }
  const rel = inside(root, start);
  if (rel === null) return { paths, tooMany: [] };
  const parts = rel.split(sep);
  const nested: string[] = [];
  for (let i = 1; i <= parts.length; i += 1) {
    // A dependency's or the data folder's AGENTS.md is not this project's instruction.
    if (SKIPPED_DIRS.has(parts[i - 1]!)) break;
    nested.push([...parts.slice(0, i), 'AGENTS.md'].join('/'));
  }
  const kept = nested.slice(-MAX_NESTED);
  return { paths: [...paths, ...kept], tooMany: nested.slice(0, nested.length - kept.length) };
}

type Outcome = { kind: 'absent' } | { kind: 'skipped'; reason: string } | { kind: 'read'; file: ReadFile; identity: string };

/** Reads one candidate without following a link out of the project; text must be UTF-8. */
function readCandidate(root: string, path: string): Outcome {
  const lexical = join(root, ...path.split('/'));
  try {
    lstatSync(lexical);
  } catch {
    return { kind: 'absent' };
  }
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    return { kind: 'skipped', reason: 'a link to nothing' };
  }
  const realRel = inside(root, real);
  if (realRel === null) return { kind: 'skipped', reason: 'a link that leads outside the project (not followed)' };
  if (realRel.split(sep).some((part) => SKIPPED_DIRS.has(part))) {
    return { kind: 'skipped', reason: `a link into ${realRel.split(sep)[0]} (not followed)` };
  }
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    return { kind: 'skipped', reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'skipped', reason: 'not a regular file' };
    const buffer = Buffer.alloc(Math.min(READ_LIMIT, stat.size));
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    const bytes = buffer.subarray(0, filled);
    const truncatedRead = stat.size > filled;
    if (bytes.includes(0)) return { kind: 'skipped', reason: 'not text (it holds NUL bytes)' };
    let text: string;
    try {
      // `stream` when the read stopped early: a character cut at the read limit is not an encoding error.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes, { stream: truncatedRead });
    } catch {
      return { kind: 'skipped', reason: 'not UTF-8 text (not read)' };
    }
    text = text.replace(/\r\n/g, '\n').trimEnd();
    if (text.trim().length === 0) return { kind: 'skipped', reason: 'empty' };
    return { kind: 'read', file: { path, bytes: stat.size, text, truncatedRead }, identity: `${stat.dev}:${stat.ino}` };
  } finally {
    closeSync(fd);
  }
}

/**
 * Shares the budget so that every file keeps something: files shorter than an equal share keep all of
 * their text and leave the rest to the longer ones (max-min fair).
 */
function shares(lengths: number[], budget: number): number[] {
  const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length);
  const out = new Array<number>(lengths.length).fill(0);
  let left = budget;
  order.forEach(({ length, index }, i) => {
    const share = Math.floor(left / (order.length - i));
    out[index] = Math.min(length, share);
    left -= out[index]!;
  });
  return out;
}

/** The first `limit` characters (code points), ending at a line break when one is near the end. */
function cutText(text: string, limit: number): string {
  const chars = Array.from(text);
  if (chars.length <= limit) return text;
  const head = chars.slice(0, limit).join('');
  const lineEnd = head.lastIndexOf('\n');
  return lineEnd >= head.length * 0.75 ? head.slice(0, lineEnd) : head;
}

const grouped = (n: number): string => n.toLocaleString('en-US');

/**
 * The instruction files of the project at `repoRoot` for a request started in `startDir`: AGENTS.md,
 * CLAUDE.md, GEMINI.md and .github/copilot-instructions.md at the root, then AGENTS.md in every folder from
 * the root down to `startDir` (nearest last). A link leaving the project, a file that is not UTF-8 text and
 * a second name for a file already read are skipped with a note; the block is at most INSTRUCTION_BUDGET
 * characters, each cut file saying so in a line of its own.
 */
export function loadProjectInstructions(repoRoot: string, startDir: string = repoRoot): ProjectInstructions {
  let root: string;
  try {
    root = realpathSync(resolve(repoRoot));
  } catch {
    return { files: [], skipped: [], text: '' };
  }
  const { paths, tooMany } = candidates(root, startDir);
  const skipped: SkippedInstructionFile[] = tooMany.map((path) => ({
    path,
    reason: `more than ${MAX_NESTED} nested instruction files; the nearest are read`,
  }));
  const read: ReadFile[] = [];
  const seen = new Map<string, string>();
  for (const path of paths) {
    const outcome = readCandidate(root, path);
    if (outcome.kind === 'absent') continue;
    if (outcome.kind === 'skipped') {
      skipped.push({ path, reason: outcome.reason });
      continue;
    }
    const first = seen.get(outcome.identity);
    if (first !== undefined) {
      skipped.push({ path, reason: `the same file as ${first}` });
      continue;
    }
    seen.set(outcome.identity, path);
    read.push(outcome.file);
  }
  if (read.length === 0) return { files: [], skipped, text: '' };
  // Headers and the widest possible cut notes are counted first; the file text shares what is left.
  const overheads = read.map((f) => length(header(f.path)) + length(cutNote(f.path, f.bytes, INSTRUCTION_BUDGET)) + 2);
  while (read.length > 1 && INSTRUCTION_BUDGET - length(INTRO) - sum(overheads) < read.length * MIN_SHARE) {
    // The nested file farthest from the start folder goes first, then root files from the last.
    const nested = read.findIndex((f) => !ROOT_INSTRUCTION_FILES.includes(f.path));
    const at = nested >= 0 ? nested : read.length - 1;
    skipped.push({ path: read[at]!.path, reason: 'no room left in the instruction budget' });
    read.splice(at, 1);
    overheads.splice(at, 1);
  }
  const lengths = read.map((f) => length(f.text));
  const allowed = shares(lengths, Math.max(0, INSTRUCTION_BUDGET - length(INTRO) - sum(overheads)));
  const files: InstructionFile[] = [];
  const blocks: string[] = [INTRO];
  read.forEach((file, i) => {
    const cut = lengths[i]! > allowed[i]! || file.truncatedRead;
    const shownText = cutText(file.text, allowed[i]!);
    const shown = length(shownText);
    files.push({ path: file.path, bytes: file.bytes, chars: lengths[i]!, shown, cut });
    blocks.push(`${header(file.path)}${shownText}${cut ? cutNote(file.path, file.bytes, shown) : ''}`);
  });
  return { files, skipped, text: blocks.join('\n\n') };
}

/** Characters as the budget counts them: code points. */
function length(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function header(path: string): string {
  return `----- ${path} -----\n`;
}

function cutNote(path: string, bytes: number, shown: number): string {
  return (
    `\n[cut by autopatch-j: ${path} has ${grouped(bytes)} bytes; the first ${grouped(shown)} characters are shown ` +
    `(project instructions are limited to ${grouped(INSTRUCTION_BUDGET)} characters in all)]`
  );
}
