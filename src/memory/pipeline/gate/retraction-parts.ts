import { subjectTerms } from '../evidence.js';
import * as L from './lexicon.js';
import { answeredItems, itemNumberOf } from './items.js';
import { anyOf } from './phrases.js';
import { fold, matchesOf } from './words.js';

/**
 * M-5.6: a retraction that names one part of a statement takes back that part only. "定了：包管理用 bun，lint 换成
 * biome——biome 那条先不要了", "Keep the first rule, drop the second", or in the next turn "算了第二条别记", "scratch
 * the Playwright part; the Node part stands": a clause names a part by its words before a pointer ("biome 那条",
 * "the Playwright part") or by ordinal ("第二条", "the second"), and drops or keeps it. The statement's parts
 * are its listed items ("1) … 2) …") or else its clauses; the name is resolved to the parts that share a term
 * with it. A quote in a dropped part is taken back; a quote in a kept part, or outside every dropped part, is not.
 */

export interface Piece {
  start: number;
  end: number;
}

/** What a retraction by parts does to the quote, and where its clauses stand (to read the statement without them). */
export interface PartRetraction {
  /** `drops`: the quote is in a part taken back; `spares`: it is not; `unresolved`: a part is taken back whose words name none. */
  effect: 'drops' | 'spares' | 'unresolved';
  /** Spans of the turn itself that name parts and answer them (from the clause to the end of its sentence). */
  inTurn: Piece[];
  /** True when the next turn names parts and answers them. */
  inNext: boolean;
}

const longestFirst = (words: readonly string[]): string[] => [...words].sort((a, b) => b.length - a.length);
const either = (w: L.Words): string => anyOf(longestFirst([...w.zh, ...w.en]));
const enOnly = (words: readonly string[]): string => anyOf(longestFirst(words));

const DROP = new RegExp(`(?<![a-z])${either(L.PART_DROPS)}(?![a-z])`, 'u');
const KEEP = new RegExp(`(?<![a-z])${either(L.PART_KEEPS)}(?![a-z])`, 'u');
const ONLY = new RegExp(`(?<![a-z])${either(L.PART_ONLY)}(?![a-z])`, 'u');
// "biome 那条", "备份那条": the words of a part, then a pointer.
const ZH_POINTED = new RegExp(`([^，,。.;；:：!！?？\\n]{1,24}?)\\s*${anyOf(longestFirst(L.PART_POINTERS.zh))}`, 'u');
// "trace 算了", "mixup 收回", "备份的事算了": a clause that is only a name and a word of dropping (no pointer).
const ZH_BARE_NAMED = new RegExp(
  `^((?:[\\s\\p{P}]|不过|但是|但|还有|另外|哦|嗯|呃)*[^，,。.;；:：!！?？\\n]{1,16}?)\\s*(?:的事|这事|那事|的部分)?\\s*(?:也|就|还是)?\\s*(?:先)?` +
    `${anyOf(longestFirst(L.PART_DROPS.zh))}[了吧啊哈]*[\\s\\p{P}]*$`,
  'u',
);
// "the Playwright part", "that no-intro bit", "the rule about tabs".
const EN_POINTED = new RegExp(
  `\\b(?:the|that|this)\\s+((?:[\\w.+#/-]+\\s+){0,3}?[\\w.+#/-]+)\\s+${enOnly(L.PART_POINTERS.en)}\\b` +
    `|\\b(?:the|that)\\s+${enOnly(L.PART_POINTERS.en)}\\s+(?:about|on|for)\\s+((?:[\\w.+#/-]+\\s*){1,3})`,
  'u',
);
// "rule 2", "no. 2", "#2": a pointer word and a number.
const NUMBERED = new RegExp(`\\b(?:${enOnly(L.PART_POINTERS.en)}|no\\.?)\\s*#?([1-5])\\b|#([1-5])\\b`, 'u');
// Words of a name that say nothing of which part it is.
const NAME_FILLERS =
  /^(?:[\s\p{P}]|算了|不过|但是|但|还有|另外|而且|至于|关于|哦|嗯|呃|对了|然后|把|那|这|就|也|先|(?:and|but|so|also|oh|ok|okay|actually|hmm|just)\b)+/iu;
// What names no thing: a bare pointer or a word of mood ("这个算了", "还是算了", "想了想算了").
const NO_NAME = /^(?:(?:这|那)(?:个|条|些|样|句|种)?|它|还是|其实|我看|想了想|那就|算|要|都|全|全部|整个)$/u;
// Words that point back at the whole statement ("刚才那条", "上面那句", "that last one"): they name no part of it.
const POINTING_BACK = /刚才|刚刚|上面|前面|之前|上一|最后|前一|\b(?:last|previous|above|earlier|whole|entire)\b/iu;

// Items of a list: "1) ", "2. ", "(3)", "①", "二、" after a separator or at the start.
const LIST_LABEL = /(?:^|[\s:：;；,，。])[(（]?([1-9]|[一二三四五]|[①②③④⑤])\s*[.、)）]\s*/gu;
// Clauses of a statement without a list: commas, semicolons, sentence ends, and conjunctions that add a statement.
const PART_BREAK = /[，,;；。!！?？\n]+|\s[-—–]{1,2}\s|—{1,2}|\s(?:and|also|plus)\s|还有|另外|以及|并且|同时/gu;
// The clauses of a retraction: as a statement's, and before "but", "但是".
const ANSWER_BREAK = /[，,;；。!！?？\n…]+|\.{2,}|\s[-—–]{1,2}\s|—{1,2}|\s+but\s+|但是|不过/gu;
const TAKING_BACK = new RegExp(either(L.RETRACTIONS), 'u');
// A clause that takes back with no name at all ("算了算了", "当我没说", "never mind"): the whole statement is meant.
const BARE_RETRACTION = new RegExp(`^[\\s\\p{P}]*(?:(?:${either(L.RETRACTIONS)}|${either(L.PART_DROPS)})[\\s\\p{P}了吧啊哈]*)+$`, 'u');

function pieces(text: string, from: number, to: number, boundary: RegExp): Piece[] {
  const out: Piece[] = [];
  let at = from;
  const push = (a: number, b: number): void => {
    const slice = text.slice(a, b);
    const lead = slice.length - slice.trimStart().length;
    const trail = slice.length - slice.trimEnd().length;
    if (b - trail > a + lead && /[\p{L}\p{N}]/u.test(slice)) out.push({ start: a + lead, end: b - trail });
  };
  for (const m of matchesOf(boundary, text.slice(from, to))) {
    push(at, from + m.index);
    at = from + m.index + m[0].length;
  }
  push(at, to);
  return out;
}

/** The parts of a statement: its listed items when it has two or more, else its clauses. */
function partsOf(text: string, to: number): Piece[] {
  const labels = matchesOf(LIST_LABEL, text.slice(0, to));
  const numbered = labels.filter((m, i) => itemNumberOf(m[1]!) === i + 1 || /[①-⑤]/u.test(m[1]!));
  if (numbered.length >= 2) {
    return numbered.map((m, i) => {
      const start = m.index + m[0].length;
      const end = i + 1 < numbered.length ? numbered[i + 1]!.index : to;
      return { start, end: start + text.slice(start, end).trimEnd().length };
    });
  }
  return pieces(text, 0, to, PART_BREAK);
}

interface NamedClause {
  clause: Piece;
  answer: 'drop' | 'keep';
  only: boolean;
  /** The ordinal of the part named, or 0 when it is named by its words. */
  item: number;
  name: string;
}

/** A clause that names a part (by ordinal, or by words before a pointer) and drops or keeps it, or null. */
function namedClause(folded: string, clause: Piece): NamedClause | null {
  const text = folded.slice(clause.start, clause.end);
  const keep = KEEP.exec(text);
  const drop = DROP.exec(text);
  if (!keep && !drop) return null;
  // "保留 A，B 不要": one answer per clause; a keep word read first ("keep the first, …") wins over a later drop word.
  const answer = keep && (!drop || keep.index <= drop.index) ? 'keep' : 'drop';
  const only = answer === 'keep' && ONLY.test(text.slice(0, keep!.index + 1));
  // The item named by an ordinal or an option, read like any answer by parts (items.ts), or by a pointer and a
  // number ("rule 2", "#2").
  const items = answeredItems(text)?.items;
  if (items?.length === 1) return { clause, answer, only, item: items[0]!, name: '' };
  const pointer = NUMBERED.exec(text);
  const label = pointer?.[1] ?? pointer?.[2];
  if (label) return { clause, answer, only, item: itemNumberOf(label), name: '' };
  const pointed = ZH_POINTED.exec(text) ?? ZH_BARE_NAMED.exec(text);
  const enPointed = EN_POINTED.exec(text);
  const raw = pointed?.[1] ?? enPointed?.[1] ?? enPointed?.[2];
  if (!raw) return null;
  // The answer word may stand before the name ("去掉私有的那条", "drop the Playwright part"): it is not the name.
  const name = raw.replace(DROP, ' ').replace(KEEP, ' ').replace(ONLY, ' ').replace(NAME_FILLERS, '').trim();
  // (A name is a Latin word or two Chinese characters at least: "那条不算" names nothing.)
  const named = /[a-z0-9]/u.test(name) || (name.match(/\p{Script=Han}/gu) ?? []).length >= 2;
  if (!named || subjectTerms(name).size === 0 || POINTING_BACK.test(name) || NO_NAME.test(name) || NO_NAME.test(raw.trim())) return null;
  return { clause, answer, only, item: 0, name };
}

function resolve(named: NamedClause, parts: readonly Piece[], folded: string): Piece[] {
  if (named.item > 0) return parts[named.item - 1] ? [parts[named.item - 1]!] : [];
  const terms = [...subjectTerms(named.name)];
  // (A Latin word names a part that has it or a word it starts, or that starts it: "lint" / "linter".)
  const names = (t: string, n: string): boolean =>
    n === t || (/^[a-z]{3,}$/u.test(n) && /^[a-z]{3,}$/u.test(t) && (t.startsWith(n) || n.startsWith(t)));
  // Every word of the name is in the part: "Python 3.8 那套" names no part about Python 3.12.
  return parts.filter((p) => {
    const own = [...subjectTerms(folded.slice(p.start, p.end))];
    return terms.every((n) => own.some((t) => names(t, n)));
  });
}

const overlapsQuote = (p: Piece, begin: number, end: number): boolean => p.start < end && begin < p.end;

/** The clauses of a text that name a part and answer it. */
function namedClauses(folded: string, from: number): NamedClause[] | null {
  // (Most turns have no word of dropping, keeping or taking back after the quote: nothing to split.)
  const tail = folded.slice(from);
  if (!DROP.test(tail) && !KEEP.test(tail) && !TAKING_BACK.test(tail)) return [];
  const clauses = pieces(folded, from, folded.length, ANSWER_BREAK);
  const named = clauses.map((c) => namedClause(folded, c));
  // (One opening the named clause right after it, "算了，第二条别记", opens that one.)
  if (clauses.some((c, i) => BARE_RETRACTION.test(folded.slice(c.start, c.end)) && !named[i + 1])) return null;
  return named.filter((c): c is NamedClause => c !== null);
}

/**
 * How a retraction by parts, after the quote in its turn or in the next turn, bears on the quote [begin, end):
 * null when no clause there names a part and answers it.
 */
export function partRetraction(text: string, begin: number, end: number, next: string | null): PartRetraction | null {
  // (Offsets are read on the folded text: it keeps the text's length, or the text is only lower-cased.)
  const folded = fold(text).length === text.length ? fold(text) : text.toLowerCase();
  const own = namedClauses(folded, end);
  const later = next === null ? [] : namedClauses(fold(next), 0);
  // (A bare retraction beside the named ones takes the whole back: read as any retraction.)
  if (own === null || later === null || (own.length === 0 && later.length === 0)) return null;
  // The statement is what the turn says before its first clause answering a part (all of it, for the next turn's).
  const to = own.length > 0 ? own[0]!.clause.start : text.length;
  const parts = partsOf(folded, to);
  if (parts.length === 0) return null;
  const laterParts = later.length > 0 ? partsOf(folded, text.length) : [];
  let dropsQuote = false;
  let keepsQuote = false;
  let dropped = false;
  let unresolved = false;
  let onlyKept = false;
  for (const [named, inParts, sameTurn] of [
    ...own.map((n) => [n, parts, true] as const),
    ...later.map((n) => [n, laterParts, false] as const),
  ]) {
    const found = resolve(named, inParts, folded);
    if (named.answer === 'drop') {
      // A name that no part of a one-part statement has, in the same turn, drops another thing ("用 pnpm，lint 那条
      // 先不要了"); in a statement of several parts, or in the next turn, it may name one in other words: what
      // stands is for the user.
      if (found.length === 0 && (inParts.length > 1 || !sameTurn)) unresolved = true;
      else dropped = true;
      if (found.some((p) => overlapsQuote(p, begin, end))) dropsQuote = true;
    } else {
      if (found.some((p) => overlapsQuote(p, begin, end))) keepsQuote = true;
      else if (found.length > 0 && named.only) onlyKept = true;
    }
  }
  const inTurn = own.map((n) => {
    // From the clause to the end of its sentence ("…——biome 那条先不要了。").
    const stop = folded.slice(n.clause.end).search(/[。！？!?\n]|\.(?=\s|$)/u);
    return { start: n.clause.start, end: stop < 0 ? text.length : n.clause.end + stop };
  });
  const effect =
    dropsQuote || (onlyKept && !keepsQuote)
      ? 'drops'
      : keepsQuote || (dropped && !unresolved)
        ? 'spares'
        : unresolved
          ? 'unresolved'
          : null;
  if (effect === null) return null;
  return { effect, inTurn, inNext: later.length > 0 };
}

/** The text with the spans blanked out (same length, so offsets into it stay those of the text). */
export function withoutSpans(text: string, spans: readonly Piece[]): string {
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + ' '.repeat(s.end - s.start) + out.slice(s.end);
  return out;
}
