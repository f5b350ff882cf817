import { createRequire } from 'node:module';
import { displayWidth, simpleWidth } from './width.js';

/**
 * Prose of an answer (a paragraph, a heading, a list item's text) filled into lines of at most `width`
 * terminal columns. Widths are display widths (a Chinese character takes two columns) and lines break only
 * where the Unicode line breaking algorithm (UAX #14, the `linebreak` package) allows it: at spaces, between
 * two Chinese characters, never before closing punctuation such as "。" or "，" nor after an opening one.
 * Terminal styling (SGR and other escape sequences) is kept and takes no room. Runs of spaces and soft line
 * breaks become one space (none between two wide characters: Chinese needs no space where a line was
 * broken in the source); `\r` (marked-terminal's hard break) stays a line break. A piece wider than a whole
 * line is cut between characters.
 */
export function reflowProse(text: string, width: number): string {
  const atoms = atomsOf(text);
  const limit = Math.max(8, width);
  const lines: Atom[][] = [[]];
  let used = 0;
  for (const piece of piecesOf(atoms)) {
    if (piece.hard) {
      dropTrailingSpaces(lines.at(-1)!);
      // The break's escapes end the line it breaks.
      lines.at(-1)!.push({ ...piece.atoms[0]!, text: '', width: 0 });
      lines.push([]);
      used = 0;
      continue;
    }
    const body = piece.atoms.slice(0, piece.atoms.length - trailingSpaces(piece.atoms));
    const bodyWidth = widthOf(body);
    if (used > 0 && used + bodyWidth > limit) {
      dropTrailingSpaces(lines.at(-1)!);
      lines.push([]);
      used = 0;
    }
    for (const atom of piece.atoms) {
      // A piece wider than a line is cut where the line is full.
      if (atom.width > 0 && used > 0 && used + atom.width > limit && atom.text !== ' ') {
        dropTrailingSpaces(lines.at(-1)!);
        lines.push([]);
        used = 0;
      }
      if (atom.text === ' ' && used === 0) {
        // No line starts with a space; its escapes are kept.
        lines.at(-1)!.push({ ...atom, text: '', width: 0 });
        continue;
      }
      lines.at(-1)!.push(atom);
      used += atom.width;
    }
  }
  dropTrailingSpaces(lines.at(-1)!);
  return lines.map((line) => line.map((a) => a.before + a.text).join('')).join('\n') + atoms.trailing;
}

interface Atom {
  /** Escape sequences written before the character. */
  before: string;
  /** One grapheme, a space, or '\n' for a hard break. */
  text: string;
  width: number;
}

type Atoms = Atom[] & { trailing: string };

// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/y;
let graphemes: Intl.Segmenter | undefined;

/** The visible characters of `text` with the escapes before each, spaces collapsed, hard breaks as '\n'. */
function atomsOf(text: string): Atoms {
  const atoms = [] as unknown as Atoms;
  let before = '';
  /** A run of white space not yet written: whether it held a line break, the escapes that came before it. */
  let space = null as { newline: boolean; before: string } | null;
  let visible = '';
  const flushVisible = (): void => {
    if (visible.length === 0) return;
    for (const { segment } of (graphemes ??= new Intl.Segmenter()).segment(visible)) {
      if (/^[ \t\n]+$/.test(segment)) {
        // Styling that ends before the space ends there, not after it.
        space = { newline: (space?.newline ?? false) || segment.includes('\n'), before: (space?.before ?? '') + before };
        before = '';
        continue;
      }
      if (segment === '\r') {
        atoms.push({ before: (space?.before ?? '') + before, text: '\n', width: 0 });
        space = null;
        before = '';
        continue;
      }
      const width = measure(segment);
      if (space) {
        const previous = atoms.at(-1);
        const joined = space.newline && previous !== undefined && previous.width === 2 && width === 2;
        const written = previous !== undefined && previous.text !== '\n' && !joined;
        atoms.push({ before: space.before, text: written ? ' ' : '', width: written ? 1 : 0 });
        space = null;
      }
      atoms.push({ before, text: segment, width });
      before = '';
    }
    visible = '';
  };
  for (let at = 0; at < text.length;) {
    ESCAPE.lastIndex = at;
    const escape = ESCAPE.exec(text);
    if (escape) {
      flushVisible();
      before += escape[0];
      at += escape[0].length;
      continue;
    }
    visible += text[at]!;
    at += 1;
  }
  flushVisible();
  const pending = space as { before: string } | null;
  atoms.trailing = (pending?.before ?? '') + before;
  return atoms;
}

function measure(grapheme: string): number {
  const simple = grapheme.length === 1 ? simpleWidth(grapheme.charCodeAt(0)) : -1;
  return simple >= 0 ? simple : displayWidth(grapheme);
}

interface LineBreak {
  position: number;
  required: boolean;
}
type LineBreaker = new (text: string) => { nextBreak(): LineBreak | null };
let breakerClass: LineBreaker | undefined;

/** The atoms cut at every break opportunity; a hard break is a piece of its own. */
function* piecesOf(atoms: Atom[]): Generator<{ atoms: Atom[]; hard: boolean }> {
  const text = atoms.map((a) => a.text).join('');
  const starts: number[] = [];
  let offset = 0;
  for (const atom of atoms) {
    starts.push(offset);
    offset += atom.text.length;
  }
  breakerClass ??= createRequire(import.meta.url)('linebreak') as LineBreaker;
  const breaker = new breakerClass(text);
  let index = 0;
  for (let next = breaker.nextBreak(); next; next = breaker.nextBreak()) {
    let end = index;
    while (end < atoms.length && starts[end]! < next.position) end += 1;
    const piece = atoms.slice(index, end);
    const hard = piece.findIndex((a) => a.text === '\n');
    if (hard >= 0) {
      if (hard > 0) yield { atoms: piece.slice(0, hard), hard: false };
      yield { atoms: [piece[hard]!], hard: true };
      if (hard < piece.length - 1) yield { atoms: piece.slice(hard + 1), hard: false };
    } else if (piece.length > 0) yield { atoms: piece, hard: false };
    index = end;
  }
  if (index < atoms.length) yield { atoms: atoms.slice(index), hard: false };
}

function widthOf(atoms: Atom[]): number {
  return atoms.reduce((sum, a) => sum + a.width, 0);
}

function trailingSpaces(atoms: Atom[]): number {
  let n = 0;
  while (n < atoms.length && atoms[atoms.length - 1 - n]!.text === ' ') n += 1;
  return n;
}

/** A line ends without its spaces; their escapes stay. */
function dropTrailingSpaces(line: Atom[]): void {
  for (let i = line.length - 1; i >= 0 && (line[i]!.text === ' ' || line[i]!.text === ''); i -= 1) {
    if (line[i]!.text === ' ') line[i] = { ...line[i]!, text: '', width: 0 };
  }
}
