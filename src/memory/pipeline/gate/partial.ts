import * as L from './lexicon.js';
import { anyOf } from './phrases.js';
import { fold } from './words.js';

/**
 * M-5.5: what counts as a proposal beyond a word of proposing, and an answer that takes one part of a proposal
 * and turns down or puts off another ("第一个可以，第二个先别动", "yes to A, no to B for now").
 */

const longestFirst = (words: readonly string[]): string[] => [...words].sort((a, b) => b.length - a.length);
const words = (w: { zh: readonly string[]; en: readonly string[] }): string => anyOf(longestFirst([...w.zh, ...w.en]));

// "那就用 Vitest 替换 Jest", "那就把缓存换成 X", "OK, let's switch to pnpm": a lead of planning right before a verb
// of choosing (or its 把 object), opening its clause.
const PLAN_LEAD = new RegExp(
  `(?:^|[，,;；:：—–-])\\s*(?:(?:ok(?:ay)?|so|then|好|嗯)[\\s,，]*)?${words(L.PLAN_LEADS)}\\s*(?:把[^，,;；。]{1,30}?)?${words(L.PLAN_VERBS)}`,
  'iu',
);
// "pnpm workspace 就行", "one lockfile at the root will do": a choice, then an end saying it suffices.
const PLAN_END = new RegExp(`[\\p{L}\\p{N}]\\s*${words(L.PLAN_ENDS)}\\s*(?:了|吧|。|\\.|!|！|$)`, 'u');
const PLAN_END_NEGATED = /不|没|别|\bnot\b|\bno\b|n't\b/u;
const PLAN_END_CHOICE = new RegExp(`[A-Za-z][\\w.+#/-]*|${anyOf(longestFirst(L.PLAN_VERBS.zh))}`, 'u');

/**
 * True when an assistant sentence states a plan for the user to take ("那就用 Vitest 替换 Jest，CI 里也一起改",
 * "let's switch to pnpm", "用 pnpm workspace 就行"): a proposal, though it has no word of proposing.
 */
export function isPlanProposal(sentence: string): boolean {
  const text = fold(sentence);
  if (PLAN_LEAD.test(text)) return true;
  // The end form names its choice and denies nothing ("不用改就行" is no plan).
  return text
    .split(/[，,;；。!！?？\n]/u)
    .some((c) => PLAN_END.test(c.trim()) && !PLAN_END_NEGATED.test(c) && PLAN_END_CHOICE.test(c.replace(PLAN_END, '')));
}

// "Two options: 1) …", "两种方案：": a plural noun of choices, then a colon.
const OPTION_LIST = new RegExp(`${words(L.OPTION_LIST_NOUNS)}\\s*[:：]`, 'iu');

/** True when the text before a listed item introduces a list of choices ("Two options:", "两种方案："), in the same paragraph. */
export function introducesOptions(before: string): boolean {
  const paragraph = before.slice(before.search(/\n\s*\n(?![\s\S]*\n\s*\n)/u) + 1);
  return OPTION_LIST.test(fold(paragraph));
}

// "1. ", "2) ", "(B) ", "方案二：" right before the quote, after a separator or at the start.
const LABEL_BEFORE = /(?:^|[\s:：;；,，。])[(（]?(?:方案\s*|option\s+)?([A-Za-z]|\d{1,2}|[一二三四五①②③④⑤])\s*[.、:：)）]\s*$/iu;
// … or opening the quote.
const LABEL_AT = /^\s*[(（]?(?:方案\s*|option\s+)?([A-Za-z]|\d{1,2}|[一二三四五①②③④⑤])\s*[.、:：)）]/iu;

/** The list labels and ordinals an item is named by (an answer by parts, a labelled list item). */
export const ORDINALS: Readonly<Record<string, number>> = {
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  '①': 1,
  '②': 2,
  '③': 3,
  '④': 4,
  '⑤': 5,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
};
const numberOf = (label: string): number => {
  const l = label.toLowerCase();
  if (/^\d{1,2}$/u.test(l)) return Number(l);
  if (/^[a-e]$/u.test(l)) return l.charCodeAt(0) - 96;
  return ORDINALS[l] ?? 0;
};

/** The number of the listed item a quote of an answer is ("1. …" at or right before it), or 0. */
export function itemNumber(text: string, begin: number, end: number): number {
  const at = LABEL_AT.exec(text.slice(begin, end));
  if (at) return numberOf(at[1]!);
  const before = LABEL_BEFORE.exec(text.slice(Math.max(0, begin - 24), begin));
  return before ? numberOf(before[1]!) : 0;
}

/** True when a label of a listed item stands right before the quote ("两个建议：1. ⟨quote⟩"). */
export function labelledBefore(text: string, begin: number): boolean {
  return LABEL_BEFORE.test(text.slice(Math.max(0, begin - 24), begin));
}

export type PartAnswer = 'yes' | 'no' | 'later';
/** One clause of an answer that takes, turns down or puts off one part of a proposal, named by ordinal or by name. */
export interface AnsweredPart {
  /** The ordinal the clause names ("第二个", "the first one"), or 0 when it names the part by its words. */
  item: number;
  /** The clause's words once the answer words are taken out ("the circuit breaker"). */
  name: string;
  answer: PartAnswer;
}

const LATER = new RegExp(words(L.PART_LATER), 'iu');
const NO = new RegExp(`(?<![a-z])${words(L.PART_NO)}(?![a-z])`, 'iu');
const YES = new RegExp(`(?<![a-z])${words(L.PART_YES)}(?![a-z])`, 'iu');
const ANSWER_WORDS = new RegExp(
  `(?<![a-z])(?:${words(L.PART_LATER)}|${words(L.PART_NO)}|${words(L.PART_YES)})(?![a-z])` +
    '|\\b(?:to|on|for|with|the|one|just|and|but)\\b|了|吧|的|那个|这个',
  'giu',
);
const ORDINAL = new RegExp(
  '第\\s*([一二三四五1-9])\\s*(?:个|条|点|项|种|部分)?|(?:方案|选项|option)\\s*([a-e一二三四五1-5])' +
    '|\\b(first|second|third|fourth|fifth)\\b(?:\\s+(?:one|part|point|item|option|suggestion|bit))?',
  'iu',
);
// Clauses of an answer: "，", "；", "but", "但是", a dash.
const CLAUSE_BREAK = /[，,;；。!！?？\n—–]+|\s+but\s+|但是|不过/iu;

/** The answer of each clause of a turn (the turn folded), answer words first in the order later, no, yes. */
function answerOf(clause: string): PartAnswer | null {
  if (LATER.test(clause)) return 'later';
  if (NO.test(clause)) return 'no';
  if (YES.test(clause)) return 'yes';
  return null;
}

/**
 * The parts a turn answers, when it takes one part of a proposal and turns down or puts off another: each
 * clause that names a part (by ordinal or by its words) and answers it; empty unless one part is taken and
 * one is not. A put-off word scopes its own clause ("…，第二个先别动"), not the one that takes its part.
 */
export function answeredParts(text: string): AnsweredPart[] {
  const parts: AnsweredPart[] = [];
  for (const raw of fold(text).split(CLAUSE_BREAK)) {
    const clause = raw.trim();
    if (clause.length === 0) continue;
    const answer = answerOf(clause);
    if (answer === null) continue;
    const ordinal = ORDINAL.exec(clause);
    const item = ordinal ? numberOf(ordinal[1] ?? ordinal[2] ?? ordinal[3] ?? '') : 0;
    const name = (ordinal ? clause.replace(ORDINAL, ' ') : clause)
      .replace(ANSWER_WORDS, ' ')
      .replace(/[\s\p{P}\p{S}]+/gu, ' ')
      .trim();
    if (item === 0 && Array.from(name.replace(/\s/gu, '')).length < 2) continue;
    parts.push({ item, name, answer });
  }
  const taken = parts.some((p) => p.answer === 'yes');
  const notTaken = parts.some((p) => p.answer !== 'yes');
  return taken && notTaken ? parts : [];
}
