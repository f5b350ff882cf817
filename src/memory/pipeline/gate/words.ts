import { ZH_PARTICLES, ZH_PRONOUNS, type Words } from './lexicon.js';

/**
 * Whole-word matching of lexicon entries (M-5.6). English entries match on word boundaries. Chinese has no
 * spaces, so a Chinese entry must start and end on a word boundary found by `Intl.Segmenter`: "定了" is not
 * in "稳定了", "他" is not in "其他". Words the segmenter gets wrong ("以后端" → 以后|端) are listed as noun
 * compounds in the lexicon instead.
 */

let segmenter: Intl.Segmenter | undefined;
/** The named gap tokens of lexicon entries. */
export const GAP = '{gap}';
export const SPAN = '{span}';
const HAN = /\p{Script=Han}/u;
const CLAUSE_GAP_ZH = '[^,，。.;；!！?？:：\\n]{0,24}?';
const CLAUSE_GAP_EN = '(?:\\s+[^\\s,.;:!?]+){0,6}?\\s+';
// "{span}" is a gap that may cross commas inside one sentence ("不管是 Java 还是 Go，…都要…"); "{gap}" stays in a clause.
const SENTENCE_GAP_ZH = '[^。.;；!！?？\\n]{0,40}?';

/** Folds text for matching: NFKC, lower case, one apostrophe and one double quote. */
// (The readings fold the same sentence and turn again and again: the last few are kept.)
const FOLDED = new Map<string, string>();
export function fold(text: string): string {
  const known = FOLDED.get(text);
  if (known !== undefined) return known;
  if (FOLDED.size >= 32) FOLDED.clear();
  const folded = foldText(text);
  FOLDED.set(text, folded);
  return folded;
}
function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc\u2032]/gu, "'")
    .replace(/[\u201c\u201d\u2033]/gu, '"');
}

/**
 * The word boundaries of a text, read where they are asked for: the segment containing an offset starts
 * there or not (the same boundaries a full pass finds, at a fraction of its cost: a match asks for two or
 * three offsets of a sentence).
 */
class Bounds {
  // (Segmented on the first offset the edge of a Chinese character does not answer.)
  private segments: Intl.Segments | null = null;
  private readonly known = new Map<number, boolean>();

  constructor(private readonly text: string) {}

  has(offset: number): boolean {
    if (offset <= 0 || offset >= this.text.length) return offset === 0 || offset === this.text.length;
    let known = this.known.get(offset);
    if (known === undefined) {
      known =
        hanEdge(this.text.charCodeAt(offset - 1), this.text.charCodeAt(offset)) ||
        (this.segments ??= (segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' })).segment(this.text)).containing(offset)
          ?.index === offset;
      this.known.set(offset, known);
    }
    return known;
  }
}

const isHan = (c: number): boolean => c >= 0x4e00 && c <= 0x9fff;
// ASCII (but DEL) and the CJK marks of punctuation and brackets: no rule of UAX #29 joins one to an ideograph.
const isPlain = (c: number): boolean =>
  c < 0x7f || (c >= 0x3000 && c <= 0x3003) || (c >= 0x3008 && c <= 0x3011) || (c >= 0x3014 && c <= 0x301f);
/** True when a Chinese character meets ASCII or CJK punctuation there: a word boundary, the segmenter need not run. */
function hanEdge(before: number, after: number): boolean {
  return (isHan(before) && isPlain(after)) || (isPlain(before) && isHan(after));
}

// Word boundaries of recent texts: the gate reads the same sentence through several lexicons and spans.
const BOUNDS = new Map<string, Bounds>();
const MAX_BOUNDS = 256;

function boundsOf(text: string): Bounds {
  let bounds = BOUNDS.get(text);
  if (bounds) return bounds;
  bounds = new Bounds(text);
  if (BOUNDS.size >= MAX_BOUNDS) BOUNDS.delete(BOUNDS.keys().next().value!);
  BOUNDS.set(text, bounds);
  return bounds;
}

/** A piece of folded text with its word boundaries, computed on first need. */
export class Span {
  private bounds: Bounds | null = null;
  constructor(readonly text: string) {}

  /** True when [start, end) is a sequence of whole words (a trailing particle may share the last word). */
  aligned(start: number, end: number, either = false): boolean {
    this.bounds ??= boundsOf(this.text);
    if (either && (this.bounds.has(start) || this.bounds.has(end))) return true;
    if (!this.bounds.has(start)) return false;
    if (this.bounds.has(end)) return true;
    if (end - start === 1 && ZH_PRONOUNS.includes(this.text[start]!)) return true;
    // The segmenter may glue a particle to the word ("留了", "都要"): accept when only particles follow up to the next boundary.
    for (let i = end; i < this.text.length; i += 1) {
      if (!ZH_PARTICLES.includes(this.text[i]!)) return false;
      if (this.bounds.has(i + 1)) return true;
    }
    return false;
  }
}

/**
 * The matches of a global regex in a text, as `[...text.matchAll(re)]` gives them (from the regex's lastIndex,
 * which is left as it was), without the copy of the regex that `matchAll` makes on every call: on the short
 * texts of the gate that copy costs more than the scan.
 */
export function matchesOf(re: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  const saved = re.lastIndex;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push(m);
    // (An empty match moves on by one character, a surrogate pair being one in a Unicode regex.)
    if (m[0].length === 0) re.lastIndex += re.unicode && text.codePointAt(re.lastIndex)! > 0xffff ? 2 : 1;
  }
  re.lastIndex = saved;
  return out;
}

export interface Hit {
  /** Offset in the span's folded text. */
  index: number;
  end: number;
  text: string;
  /** For a gap pattern ("每次…都"), the gap's offsets: what stands there is not the pattern's own word. */
  gap?: [number, number];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function source(entry: string, gap: string): string {
  if (entry.includes(SPAN))
    return entry
      .split(SPAN)
      .map((part) => source(part, gap))
      .join(`(${SENTENCE_GAP_ZH})`);
  return entry
    .split(GAP)
    .map((part) => escape(part.trim()).replace(/ +/g, '\\s*'))
    .join(`(${gap})`);
}

/**
 * A lexicon's alternation with the shared beginnings of its entries written once: `always|also|alright` becomes
 * `al(?:ways|so|right)`. The regex engine otherwise compiles and tries every entry separately: the merged form
 * is several times smaller in machine code, and the time of a scan is mostly the fetching of that code.
 *
 * It matches exactly what the plain list matches, with the same alternative winning: alternatives are only
 * moved past others they can never match at the same offset with. Two alternatives whose next parts are
 * different literal characters are such a pair, and so are a literal character and the `\s+` of a space. A
 * part that may match anything or nothing (a gap, `\s*`) and the end of an entry are barriers: nothing moves
 * across them. A `\s+` is shared only where every entry continues with a literal character after it, so that
 * only its longest run can match and the order of trying stays the same. Null when a source holds anything
 * else (the caller then keeps the plain list).
 */
function merged(sources: readonly string[]): string | null {
  const alternatives: string[][] = [];
  for (const s of sources) {
    const tokens = tokensOf(s);
    if (tokens === null) return null;
    alternatives.push(tokens);
  }
  return mergedTokens(alternatives);
}

const LITERAL_SPACE = /\s/u;

/** The parts of an entry's source: literal characters (escaped as needed), `\s*`, `\s+` and gap groups. */
function tokensOf(source: string): string[] | null {
  const tokens: string[] = [];
  for (let i = 0; i < source.length;) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source.slice(i, i + 3);
      if (next === '\\s*' || next === '\\s+') {
        tokens.push(next);
        i += 3;
      } else if (/^\\[.*+?^${}()|[\]\\]$/u.test(source.slice(i, i + 2))) {
        tokens.push(source.slice(i, i + 2));
        i += 2;
      } else {
        return null;
      }
    } else if (c === '(') {
      const end = groupEnd(source, i);
      if (end < 0 || /^[*+?{]/u.test(source.slice(end))) return null;
      tokens.push(source.slice(i, end));
      i = end;
    } else {
      const char = String.fromCodePoint(source.codePointAt(i)!);
      if ('.*+?^${}()|[]'.includes(char) || LITERAL_SPACE.test(char)) return null;
      tokens.push(char);
      i += char.length;
    }
  }
  return tokens;
}

/** The offset just after the group opening at `start` (nested groups, classes and escapes skipped), or -1. */
function groupEnd(source: string, start: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = start; i < source.length; i += 1) {
    const c = source[i]!;
    if (c === '\\') i += 1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth += 1;
    else if (c === ')' && (depth -= 1) === 0) return i + 1;
  }
  return -1;
}

const isLiteral = (token: string | undefined): boolean =>
  token !== undefined && token !== '\\s*' && token !== '\\s+' && !token.startsWith('(');

/** The key an alternative is grouped by at its first part, or null when it is a barrier. */
function keyOf(tokens: readonly string[], siblings: readonly (readonly string[])[]): string | null {
  const first = tokens[0];
  if (isLiteral(first)) return first!;
  if (first === '\\s+' && siblings.every((t) => t[0] !== '\\s+' || isLiteral(t[1]))) return first;
  return null;
}

function mergedTokens(alternatives: readonly (readonly string[])[]): string {
  const out: string[] = [];
  let run = new Map<string, (readonly string[])[]>();
  const flush = (): void => {
    for (const [key, rests] of run) {
      out.push(rests.length === 1 ? key + rests[0]!.join('') : `${key}(?:${mergedTokens(rests)})`);
    }
    run = new Map();
  };
  for (const tokens of alternatives) {
    const key = keyOf(tokens, alternatives);
    if (key === null) {
      flush();
      out.push(tokens.join(''));
      continue;
    }
    const rests = run.get(key) ?? [];
    rests.push(tokens.slice(1));
    run.set(key, rests);
  }
  flush();
  return out.join('|');
}

/** A compiled lexicon: one regular expression for all of its entries. */
// A character that continues a word: an English entry does not start right after one ("gemini" holds no "i").
const WORD_CHAR = /[\p{L}\p{N}_']$/u;

/** True when a word character ends right before `index` (what `(?<![\p{L}\p{N}_'])` rejects there). */
function wordCharBefore(text: string, index: number): boolean {
  if (index === 0) return false;
  const c = text.charCodeAt(index - 1);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x27;
  // (Two code units: a surrogate pair ending at `index` is read as one character, as the lookbehind reads it.)
  return WORD_CHAR.test(text.slice(Math.max(0, index - 2), index));
}

export class Phrases {
  private readonly regex: RegExp;
  private readonly sticky: RegExp;
  /**
   * With Chinese and English entries both, the Chinese part is group 1, so that a match is known to be English
   * (group 1 unset) and checked for its word start in code: the lookbehind, a large Unicode class, compiled into
   * every lexicon's regex was a good part of all its machine code. The gaps are the groups after it.
   */
  private readonly zhGroup: boolean;
  private readonly hasEn: boolean;

  /**
   * `align`: 'both' (default) needs a word boundary at both ends of a Chinese match; 'either' at one end, for
   * words that cancel a statement, where the segmenter's glue ("我再|想想") must not hide them; 'none' matches
   * substrings (compounds, two-character negations).
   */
  constructor(
    words: Words,
    private readonly align: 'both' | 'either' | 'none' = 'both',
  ) {
    const byLength = (a: string, b: string): number => b.length - a.length;
    const zh = [...words.zh].sort(byLength).map((e) => source(e, CLAUSE_GAP_ZH));
    const en = [...words.en].sort(byLength).map((e) => source(e, CLAUSE_GAP_EN).replace(/\\s\*/g, '\\s+'));
    const parts: string[] = [];
    this.zhGroup = zh.length > 0 && en.length > 0;
    this.hasEn = en.length > 0;
    if (zh.length > 0) parts.push(this.zhGroup ? `(${merged(zh) ?? zh.join('|')})` : `(?:${merged(zh) ?? zh.join('|')})`);
    // (The word start of an English entry is checked by `englishMidWord`; its word end stays in the regex, where a
    // failing end lets the engine try the other entries.)
    if (en.length > 0) parts.push(`(?:${merged(en) ?? en.join('|')})(?![\\p{L}\\p{N}_])`);
    // Match indices (the 'd' flag) cost time on every match: only a lexicon with gaps asks for them.
    const gaps = [...words.zh, ...words.en].some((e) => e.includes(GAP) || e.includes(SPAN));
    this.regex = new RegExp(parts.join('|'), gaps ? 'dgu' : 'gu');
    this.sticky = new RegExp(parts.join('|'), gaps ? 'dyu' : 'yu');
    // Each Chinese entry on its own, by its first character, in the order the regex tries them: where the
    // match found at an offset does not end on a word boundary, a shorter entry at the same offset may.
    for (const [k, entry] of [...words.zh].sort(byLength).entries()) {
      const first = entry[0]!;
      const list = this.byFirst.get(first) ?? [];
      list.push(new RegExp(zh[k]!, gaps ? 'dyu' : 'yu'));
      this.byFirst.set(first, list);
    }
  }

  private readonly byFirst = new Map<string, RegExp[]>();

  /** True when the match is of an English entry that does not start a word: no match at that offset. */
  private englishMidWord(m: RegExpExecArray, text: string): boolean {
    return this.hasEn && (!this.zhGroup || m[1] === undefined) && wordCharBefore(text, m.index);
  }

  /** The first other entry matching at `index` whose match is aligned, or null. */
  private alternative(span: Span, index: number, failedEnd: number): RegExpExecArray | null {
    for (const re of this.byFirst.get(span.text[index]!) ?? []) {
      re.lastIndex = index;
      const m = re.exec(span.text);
      if (!m || m[0].length === 0 || index + m[0].length === failedEnd) continue;
      if (span.aligned(index, index + m[0].length, this.align === 'either')) return m;
    }
    return null;
  }

  /** Every whole-word occurrence in the span. */
  find(span: Span, from = 0, to = span.text.length): Hit[] {
    const out: Hit[] = [];
    const text = span.text;
    this.regex.lastIndex = from;
    for (let found = this.regex.exec(text); found !== null; found = this.regex.exec(text)) {
      let m = found;
      // A retry starts one code point later: a `u` regex set inside a surrogate pair matches from the pair's start
      // again, so "+ 1" after an emoji would find the same match for ever.
      if (this.englishMidWord(m, text)) {
        this.regex.lastIndex = nextCodePoint(text, m.index);
        continue;
      }
      if (m[0].length === 0) {
        this.regex.lastIndex = nextCodePoint(text, m.index);
        continue;
      }
      if (m.index >= to) break;
      if (this.align !== 'none' && HAN.test(m[0][0]!) && !span.aligned(m.index, m.index + m[0].length, this.align === 'either')) {
        const other = this.alternative(span, m.index, m.index + m[0].length);
        if (!other) {
          this.regex.lastIndex = nextCodePoint(text, m.index);
          continue;
        }
        m = other;
        this.regex.lastIndex = m.index + m[0].length;
      }
      const end = m.index + m[0].length;
      const hit: Hit = { index: m.index, end, text: m[0] };
      if (m.length > 1 && m.indices) {
        // (An entry of `alternative` has no group of the Chinese part before its gaps.)
        for (let g = m === found && this.zhGroup ? 2 : 1; g < m.indices.length; g += 1) {
          const range = m.indices[g];
          if (range) {
            hit.gap = [range[0], range[1]];
            break;
          }
        }
      }
      out.push(hit);
    }
    return out;
  }

  /** The whole-word occurrence that starts exactly at `index`, or null: one match attempt, no scan. */
  at(span: Span, index: number): Hit | null {
    this.sticky.lastIndex = index;
    const m = this.sticky.exec(span.text);
    if (m === null || m[0].length === 0 || this.englishMidWord(m, span.text)) return null;
    if (this.align !== 'none' && HAN.test(m[0][0]!) && !span.aligned(index, index + m[0].length, this.align === 'either')) {
      const other = this.alternative(span, index, index + m[0].length);
      return other ? { index, end: index + other[0].length, text: other[0] } : null;
    }
    return { index, end: index + m[0].length, text: m[0] };
  }

  /** The first whole-word occurrence in [from, to), or null. */
  first(span: Span, from = 0, to = span.text.length): Hit | null {
    return this.find(span, from, to).find((h) => h.end <= to) ?? null;
  }

  has(span: Span, from = 0, to = span.text.length): boolean {
    return this.first(span, from, to) !== null;
  }

  /** The span's text with every occurrence replaced by a space. */
  strip(span: Span): string {
    let out = '';
    let at = 0;
    for (const h of this.find(span)) {
      if (h.index < at) continue;
      out += `${span.text.slice(at, h.index)} `;
      at = h.end;
    }
    return out + span.text.slice(at);
  }
}

/** The index of the code point after the one at `index` (an emoji or other astral character is two code units). */
function nextCodePoint(text: string, index: number): number {
  return index + ((text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1);
}
