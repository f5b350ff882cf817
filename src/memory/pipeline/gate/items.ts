import * as L from './lexicon.js';
import { anyOf } from './phrases.js';
import { fold } from './words.js';

/**
 * M-5.5: one reader of list items for both sides of a confirmation. The items of a proposal are told by their
 * labels ("1) …", "(B) …", "方案二：…", "一是…", "其二，…"); the items an answer names are told by an ordinal or a
 * label ("第二个可以", "前两条 OK", "option B", "the second one", "B 吧"). Both come down to the item's number,
 * so a part of an answer is matched to a part of the proposal by number alone.
 */

const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
  '5th': 5,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  both: 2,
};
const CIRCLED = '①②③④⑤';

/** The number a label or an ordinal stands for ("2", "B", "二", "②", "second", "two"), or 0. */
export function itemNumberOf(label: string): number {
  const l = label.toLowerCase();
  if (/^\d{1,2}$/u.test(l)) return Number(l);
  if (/^[a-z]$/u.test(l)) return l.charCodeAt(0) - 96;
  const circled = CIRCLED.indexOf(l);
  if (circled >= 0) return circled + 1;
  return ORDINAL_WORDS[l] ?? 0;
}

const longestFirst = (words: readonly string[]): string[] => [...words].sort((a, b) => b.length - a.length);
const EN_ORDINAL = 'first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th';
const ZH_NUMERAL = '[一二三四五]';
const OPTION_NOUNS = anyOf(longestFirst([...L.ITEM_LABEL_NOUNS.zh, ...L.ITEM_LABEL_NOUNS.en]));
const ZH_NOUNS = anyOf(longestFirst(L.ITEM_NOUNS.zh));
const EN_NOUNS = anyOf(longestFirst(L.ITEM_NOUNS.en));

// The label an item of a listed proposal carries: "1.", "2)", "(B)", "B:", "方案二：", "Option B", "①", and the
// Chinese enumerations "一是…", "其二，…", "第三，…". (A numeral with 是 after a separator: "统一是" is no label.)
const LABEL =
  `[(（]?(?:(?:${OPTION_NOUNS})\\s*([a-z]|\\d{1,2}|${ZH_NUMERAL})(?![\\p{L}\\p{N}])\\s*[.、:：)）]?` +
  `|([a-z]|\\d{1,2}|${ZH_NUMERAL})\\s*[.、:：)）]` +
  `|([${CIRCLED}])\\s*[.、:：)）]?` +
  // "第二种是…", "一个是…", "其二，…", "第三点：…".
  `|(?:其|第)?(${ZH_NUMERAL})(?:${ZH_NOUNS})?是|(?:其|第)(${ZH_NUMERAL})(?:${ZH_NOUNS})?\\s*[，,、:：]` +
  // "first, …; second, …", "Secondly: …".
  `|(${EN_ORDINAL})(?:ly)?\\s*[,:，：])`;
const LABEL_OPENING = new RegExp(`^\\s*${LABEL}`, 'iu');
const LABEL_BEFORE = new RegExp(`(?:^|[\\s:：;；,，。])${LABEL}\\s*$`, 'iu');
/** A label of a listed item: its number, as written, and where it starts in the text. */
export interface ListLabel {
  readonly item: number;
  readonly label: string;
  readonly start: number;
}

/** The label of the listed item a quote of an answer is (it opens the quote or stands right before it), or null. */
export function listLabel(text: string, begin: number, end: number): ListLabel | null {
  const opening = LABEL_OPENING.exec(text.slice(begin, end));
  const from = Math.max(0, begin - 24);
  const before = opening ? null : LABEL_BEFORE.exec(text.slice(from, begin));
  const m = opening ?? before;
  const label = m?.slice(1).find((g) => g !== undefined);
  if (!m || label === undefined || itemNumberOf(label) === 0) return null;
  // (The label before the quote starts after the separator the pattern opens with.)
  const start = opening ? begin : from + m.index + (/^[\s:：;；,，。]/u.test(m[0]) ? 1 : 0);
  return { item: itemNumberOf(label), label, start };
}

/** The number of the listed item a quote of an answer is, or 0. */
export function listedItem(text: string, begin: number, end: number): number {
  return listLabel(text, begin, end)?.item ?? 0;
}

// How an answer names items: "第二个", "第 2 条", "前两条", "方案 B", "option 2", "the first two", "the second one",
// "the second", "second:"; and a bare label opening its clause ("B 吧", "2 可以", "yes to A").
const ALL = anyOf(longestFirst(L.ITEM_NAMES_ALL.zh));
// Each form captures one group; `range` marks those that name the first few items ("前两条", "the first two",
// "两个都", "all three", "both").
const FORMS: readonly { source: string; range: boolean }[] = [
  // (Not "第一次", "第二天": a count of times or days is no item.)
  { source: `第\\s*([一二三四五1-9])\\s*(?:${ZH_NOUNS})?(?!${anyOf(longestFirst(L.GRAMMAR.ordinalCounters))})`, range: false },
  { source: `前\\s*([两二三四五2-5])\\s*(?:${ZH_NOUNS})`, range: true },
  { source: `(?:${OPTION_NOUNS})\\s*([a-e一二三四五1-9])(?![\\p{L}\\p{N}])`, range: false },
  // "B 方案", "2 号方案": the label before the noun of an option.
  { source: `(?<![\\p{L}\\p{N}])([a-e1-9])\\s*号?\\s*(?:${OPTION_NOUNS})`, range: false },
  // "两个都可以", "三条全部照做": a count of items, then a word of all.
  { source: `(?<![\\p{N}一二三四五])([两三四五2-5])\\s*(?:${ZH_NOUNS})?\\s*(?:${ALL})`, range: true },
  { source: `(?<![\\p{L}])(?:the\\s+)?first\\s+(two|three|four)(?![\\p{L}])(?:\\s+(?:${EN_NOUNS})s?(?![\\p{L}]))?`, range: true },
  // "all three", "all four of them", "both (of them)".
  { source: `(?<![\\p{L}])(?:all\\s+(?:of\\s+the\\s+)?(two|three|four|five)|(both))(?![\\p{L}])`, range: true },
  { source: `(?<![\\p{L}])(?:the\\s+)?(${EN_ORDINAL})\\s+(?:${EN_NOUNS})s?(?![\\p{L}])`, range: false },
  { source: `(?<![\\p{L}])the\\s+(${EN_ORDINAL})(?![\\p{L}])`, range: false },
  { source: `(?<![\\p{L}])(${EN_ORDINAL})(?=\\s*(?:[\\p{P}]|$))`, range: false },
];
const NAME_FORMS = FORMS.map((f) => f.source).join('|');
// The capture groups of NAME_FORMS that name the first few items.
const RANGE_GROUPS = new Set(
  FORMS.flatMap((f, i) => {
    const before = FORMS.slice(0, i).reduce((n, g) => n + groupsIn(g.source), 0);
    return f.range ? Array.from({ length: groupsIn(f.source) }, (_, k) => before + k) : [];
  }),
);
function groupsIn(source: string): number {
  return new RegExp(`${source}|`, 'u').exec('')!.length - 1;
}
// A bare label, then what may follow it in an answer ("B 吧", "2 可以", "A, not B").
const BARE = `(?<![\\p{L}\\p{N}])([a-e1-5])(?=\\s*(?:[\\p{P}]|$|(?:${anyOf(longestFirst(L.GRAMMAR.afterItemLabel))})(?![a-z])))`;
// A confirmation names its item right at its opening, after a yes and a lead of choosing ("行，就选方案二",
// "yep, let's do B").
const CONFIRMING = new RegExp(
  `^[\\s\\p{P}]*(?:(?:${anyOf(longestFirst([...L.GRAMMAR.bareConfirmations, ...L.ITEM_CHOICE_LEADS.zh]))})[\\s\\p{P}]+)?` +
    `(?:${anyOf(longestFirst(L.ITEM_CHOICE_LEADS.en))}\\s+|${anyOf(longestFirst(L.ITEM_CHOICE_LEADS.zh))}\\s*)?(?:${NAME_FORMS}|${BARE})`,
  'iu',
);
// A clause of an answer by parts names its item anywhere by an ordinal or an option, or opens on a bare label,
// after words that answer it ("yes to A", "skip B", "不要 B").
const ANSWER_LEADS = anyOf(
  longestFirst([
    ...L.GRAMMAR.bareConfirmations,
    ...L.ITEM_CHOICE_LEADS.zh,
    ...L.ITEM_CHOICE_LEADS.en,
    ...L.ITEM_ANSWER_LEADS.zh,
    ...L.ITEM_ANSWER_LEADS.en,
  ]),
);
const ANSWERING_BARE = new RegExp(`^[\\s\\p{P}]*(?:(?:${ANSWER_LEADS})(?![a-z])[\\s\\p{P}]*){0,2}${BARE}`, 'iu');
const NAMED_ANYWHERE = new RegExp(NAME_FORMS, 'iu');

/** The items a clause of an answer names, and where the naming stands in the folded clause. */
export interface NamedItems {
  readonly items: readonly number[];
  readonly index: number;
  readonly end: number;
}

function namedBy(m: RegExpExecArray | null): NamedItems | null {
  if (!m) return null;
  const at = m.slice(1).findIndex((g) => g !== undefined);
  if (at < 0) return null;
  const n = itemNumberOf(m[1 + at]!);
  if (n === 0) return null;
  const items = RANGE_GROUPS.has(at) ? Array.from({ length: n }, (_, i) => i + 1) : [n];
  return { items, index: m.index, end: m.index + m[0].length };
}

/**
 * The items a confirmation names at its opening ("第二个可以" → [2], "前两条 OK" → [1, 2], "yep, let's do B" → [2]):
 * the naming runs from the start of the folded text to `end`. Null when it names none there.
 */
export function confirmedItems(text: string): NamedItems | null {
  return namedBy(CONFIRMING.exec(fold(text)));
}

/**
 * The items one clause of an answer by parts names ("第二个先别动" → [2], "the first one yes" → [1], "B 不要" → [2]):
 * an ordinal or an option anywhere in it, or a bare label opening it. Null when it names none.
 */
export function answeredItems(clause: string): NamedItems | null {
  const folded = fold(clause);
  return namedBy(ANSWERING_BARE.exec(folded)) ?? namedBy(NAMED_ANYWHERE.exec(folded));
}

/** True when a sentence names the item numbered `n` anywhere in it ("我推荐方案二", "I'd pick B", "the second one"). */
export function namesItem(sentence: string, n: number, label: string): boolean {
  const folded = fold(sentence);
  for (const m of folded.matchAll(new RegExp(NAME_FORMS, 'giu'))) if (namedBy(m)?.items.includes(n)) return true;
  // The label as a word of its own ("I'd go with B", "选 2").
  const escaped = fold(label).replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(folded);
}
