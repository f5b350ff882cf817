import * as L from './lexicon.js';
import { anyOf, POSTPONE_END } from './phrases.js';
import { answeredItems } from './items.js';
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

export type PartAnswer = 'yes' | 'no' | 'later';
/** One clause of an answer that takes, turns down or puts off one part of a proposal, named by ordinal or by name. */
export interface AnsweredPart {
  /** The items the clause names ("第二个", "the first one", "B"; items.ts), or none when it names the part by its words. */
  items: readonly number[];
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
// Clauses of an answer: "，", "；", "but", "但是", a dash.
const CLAUSE_BREAK = /[，,;；。!！?？\n—–]+|\s+but\s+|但是|不过/iu;

/** The answer of each clause of a turn (the turn folded), answer words first in the order later, no, yes. */
function answerOf(clause: string): PartAnswer | null {
  // "第一点再说", "B 之后再定": a put-off ending the clause.
  if (LATER.test(clause) || POSTPONE_END.test(clause)) return 'later';
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
    const named = answeredItems(clause);
    const items = named?.items ?? [];
    const name = (named ? clause.slice(0, named.index) + ' ' + clause.slice(named.end) : clause)
      .replace(ANSWER_WORDS, ' ')
      .replace(/[\s\p{P}\p{S}]+/gu, ' ')
      .trim();
    if (items.length === 0 && Array.from(name.replace(/\s/gu, '')).length < 2) continue;
    parts.push({ items, name, answer });
  }
  const taken = parts.some((p) => p.answer === 'yes');
  const notTaken = parts.some((p) => p.answer !== 'yes');
  return taken && notTaken ? parts : [];
}
