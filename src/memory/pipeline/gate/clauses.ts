import { matchesOf } from './words.js';

/**
 * Sentences and clauses (M-5.6): the gate judges the clause a quote stands in, and looks at its sentence and
 * neighbours only where the language needs them. Offsets are UTF-16 offsets into the text given.
 */

export interface Piece {
  start: number;
  end: number;
}

// A sentence ends at 。！？；, a line break, or a period before a space that does not close an abbreviation. A "?" set
// apart by spaces before a word ("use ? instead of unwrap()") is a symbol of code, not a question mark.
const SYMBOL_QUESTION = String.raw`(?<=(?:\b(?:with|the|a|an|use|using|of|and|or)|[用把和或])[^\S\n]+\?+)[^\S\n]+[\p{L}\p{N}(]`;
const SENTENCE_END = new RegExp(
  String.raw`[。！？!；;\n]+|\?+(?!${SYMBOL_QUESTION})` + String.raw`|(?<!(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|mr|dr)|\.\.)\.(?=\s|$)`,
  'giu',
);
// A clause also ends at commas, colons, dashes and ellipses, and before a contrastive conjunction.
const CLAUSE_END =
  /[，,、：:…]+|\.{3}|\s[-—–]{1,2}\s|—{1,2}|(?=但是|不过|然而|可是|但(?!凡|愿)|只不过)|(?<=\s)(?=(?:but|however|though|although|whereas|except)\b)/giu;

function split(text: string, from: number, to: number, boundary: RegExp): Piece[] {
  const out: Piece[] = [];
  const slice = text.slice(from, to);
  let at = 0;
  boundary.lastIndex = 0;
  for (const m of matchesOf(boundary, slice)) {
    const end = m.index + m[0].length;
    if (m.index > at || m[0].length > 0) pushTrimmed(slice, at, end, from, out);
    at = end;
  }
  pushTrimmed(slice, at, slice.length, from, out);
  return out;
}

function pushTrimmed(text: string, start: number, end: number, base: number, out: Piece[]): void {
  let s = start;
  let e = end;
  while (s < e && /\s/u.test(text[s]!)) s += 1;
  while (e > s && /\s/u.test(text[e - 1]!)) e -= 1;
  if (e > s) out.push({ start: base + s, end: base + e });
}

// The gate reads the sentences of one text several times (the statement, its correction lead, its neighbours).
const RECENT = new Map<string, Piece[]>();
const MAX_RECENT = 16;

/** The sentences of a text, each including its closing mark (the same array for the same text: read-only). */
export function sentencesOf(text: string): Piece[] {
  let found = RECENT.get(text);
  if (found) return found;
  found = readSentences(text);
  if (RECENT.size >= MAX_RECENT) RECENT.delete(RECENT.keys().next().value!);
  RECENT.set(text, found);
  return found;
}

function readSentences(text: string): Piece[] {
  const pieces = split(text, 0, text.length, SENTENCE_END);
  // A sentence does not end inside quotation marks: "README 里写着：“默认…覆盖。” 我本地起不来" is one sentence.
  const out: Piece[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    // Nor inside a code span on its line: "用 `?` 传播错误" keeps the "?" of the code.
    const inCode = last !== undefined && openCode(text.slice(last.start, last.end)) && !text.slice(last.end, piece.start).includes('\n');
    if (last && (openQuote(text.slice(last.start, last.end)) || inCode)) last.end = piece.end;
    else out.push({ ...piece });
  }
  return out;
}

const OPENERS = '“「『';
const CLOSERS = '”」』';
function openQuote(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (OPENERS.includes(ch)) depth += 1;
    else if (CLOSERS.includes(ch) && depth > 0) depth -= 1;
  }
  return depth > 0;
}

/** An odd number of single backticks (a fence of three or more is not a code span's mark). */
function openCode(text: string): boolean {
  return (text.replace(/`{3,}/gu, '').match(/`/gu) ?? []).length % 2 === 1;
}

/** The clauses of one piece of a text. */
export function clausesOf(text: string, piece: Piece): Piece[] {
  return split(text, piece.start, piece.end, CLAUSE_END);
}

/** The sentences that overlap [begin, end). */
export function sentencesCovering(sentences: readonly Piece[], begin: number, end: number): Piece[] {
  const out = sentences.filter((s) => s.start < end && begin < s.end);
  if (out.length > 0) return out;
  // A quote of only spaces or marks between sentences: take the nearest sentence before it.
  const before = sentences.filter((s) => s.end <= begin);
  return before.length > 0 ? [before[before.length - 1]!] : sentences.slice(0, 1);
}
