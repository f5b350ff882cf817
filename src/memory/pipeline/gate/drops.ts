import * as L from './lexicon.js';
import { fold } from './words.js';

/**
 * A clause that points back at what was said before it and drops it (M-5.7: a retraction in the same or the
 * next turn voids the statement): "这个不用", "这个先 hold", "刚才那条记反了", "drop that", "that's off the
 * table for now". The clause is nothing but the pointing word and the drop (with words that add nothing:
 * "wait", "先", "了", "for now"), so "这个不用问我" or "skip that step when the build is green" keep their act.
 */

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s*');
const alt = (words: readonly string[]): string =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');

const FRAME = `(?:(?:${alt([...L.DROP_FRAME.zh, ...L.DROP_FRAME.en])})(?![a-z])[\\s\\p{P}]*)*`;
const ANAPHOR = `(?:${alt([...L.DROP_ANAPHORS.zh, ...L.DROP_ANAPHORS.en])})(?![a-z])`;
const PREDICATE = `(?:${alt([...L.DROP_PREDICATES.zh, ...L.DROP_PREDICATES.en])})(?![a-z])`;
const VERB = `(?:${alt(L.DROP_VERBS.en)})(?![a-z])`;

const DROP_CLAUSE = new RegExp(`^${FRAME}(?:${ANAPHOR}\\s*${FRAME}${PREDICATE}|${VERB}\\s+${ANAPHOR})\\s*${FRAME}$`, 'u');
// A condition clause before it ("if the build fails, skip that"): the drop is a step of the rule, not its retraction.
const CONDITION = /^(?:(?:and|but|or|so|然后|但是?)\s*)?(?:if|when|whenever|unless|如果|要是|假如|万一|碰到|遇到)/u;

/** True when a clause of the text (read after a quote, or a whole later turn) drops what was said before it. */
export function dropsBack(text: string): boolean {
  const clauses = fold(text)
    .split(/[，,。.!！;；?？\n—–…]|\s-\s/u)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
  return clauses.some((c, i) => DROP_CLAUSE.test(c) && !(i > 0 && CONDITION.test(clauses[i - 1]!)));
}
