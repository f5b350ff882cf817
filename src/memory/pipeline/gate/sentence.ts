import { clausesOf, type Piece } from './clauses.js';
import { CONDITION_END, P, WORD } from './phrases.js';
import { quotedRanges } from './text-types.js';
import { fold, type Hit, Phrases, Span } from './words.js';

/** A sentence prepared for judging, and the act found in it. */

export interface Act {
  type: 'standing' | 'preference' | 'decision' | 'label' | 'ruling' | 'rule' | 'shape';
  hit: Hit;
  /** A rule by clause shape with no scope (shape.ts): weak evidence, held for the user. */
  weak?: boolean;
  clause: number;
  negated: boolean;
  quoted: boolean;
}

/** A sentence prepared for judging: folded text, clauses and quoted ranges in folded offsets. */
export class Sentence {
  readonly span: Span;
  readonly clauses: Piece[];
  private quotedCache: [number, number][] | null = null;

  constructor(
    readonly text: string,
    readonly piece: Piece,
  ) {
    const folded = fold(text.slice(piece.start, piece.end));
    this.span = new Span(folded);
    this.clauses = clausesOf(folded, { start: 0, end: folded.length });
    if (this.clauses.length === 0) this.clauses.push({ start: 0, end: folded.length });
  }

  private readonly memo = new Map<Phrases, Hit[]>();

  /** Hits of a lexicon in [from, to) of this sentence; the whole-sentence scan runs once per lexicon. */
  hits(phrases: Phrases, from = 0, to = this.span.text.length): Hit[] {
    let all = this.memo.get(phrases);
    if (!all) {
      all = phrases.find(this.span);
      this.memo.set(phrases, all);
    }
    return all.length === 0 || (from === 0 && to >= this.span.text.length) ? all : all.filter((h) => h.index >= from && h.end <= to);
  }

  get quoted(): [number, number][] {
    this.quotedCache ??= quotedRanges(this.span.text);
    return this.quotedCache;
  }

  /** A raw offset of the turn text, in this sentence's folded offsets. */
  at(offset: number): number {
    const clamped = Math.min(Math.max(offset, this.piece.start), this.piece.end);
    // (A quote of the whole sentence asks for its two ends: nothing to fold there.)
    if (clamped === this.piece.start) return 0;
    if (clamped === this.piece.end) return this.span.text.length;
    return fold(this.text.slice(this.piece.start, clamped)).length;
  }

  clauseOf(index: number): number {
    for (let i = 0; i < this.clauses.length; i += 1) if (index < this.clauses[i]!.end) return i;
    return this.clauses.length - 1;
  }

  clauseText(i: number): string {
    const c = this.clauses[i]!;
    return this.span.text.slice(c.start, c.end);
  }

  /** Clauses that state a condition of a rule ("when you're unsure …", "遇到…的时候"). */
  isCondition(i: number): boolean {
    this.conditionCache[i] ??= this.readCondition(i);
    return this.conditionCache[i];
  }

  private readonly conditionCache: boolean[] = [];

  private readCondition(i: number): boolean {
    // "以后遇到不确定的地方": a time scope may stand before the condition, and "again" ("以后再碰到…") after it.
    const text = this.clauseText(i)
      .trim()
      .replace(/^(?:(?:以后|今后|往后|之后)(?:再|又)?|from now on,?|going forward,?)\s*/u, '');
    if (P.conditions.at(new Span(text), 0)) return true;
    return CONDITION_END.test(text);
  }
}

export function overlaps(a: Hit, b: Hit): boolean {
  return a.index < b.end && b.index < a.end;
}

/**
 * True when a word belongs to the act's own words: it overlaps the act and is not only inside the gap of a
 * gap pattern ("以后…都" holds "是不是" in "以后是不是都要…": that question is still a question).
 */
export function ofAct(h: Hit, act: Act): boolean {
  if (!overlaps(h, act.hit)) return false;
  const gap = act.hit.gap;
  // (A word reaching into the gap — "not sure" in "we're not {gap} anymore" — is not the pattern's own either.)
  return !(gap && h.index < gap[1] && h.end > gap[0]);
}

export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** True when only spaces and punctuation stand between the start of the clause and the offset. */
export function opensClause(s: Sentence, index: number): boolean {
  const c = s.clauses[s.clauseOf(index)]!;
  return /^[\s\p{P}\p{S}]*$/u.test(s.span.text.slice(c.start, index));
}
