import {
  MAX_PHRASE_WORDS,
  canonicalText,
  deletions,
  indexWords,
  phraseKey,
  spellings,
  startsCjk,
  phraseWords,
} from '../../shared/search-words.js';
import { statedAnswerRows } from '../../shared/search-answer-types.js';
import { normalizeText } from '../../shared/text.js';

/**
 * The search terms an item revision is indexed under (M-7.2, M-7.7). They live with the store, which writes
 * them; retrieval reads them back through the same limits and the same word rules (`shared/search-words`).
 */

/** M-7.4: a query longer than this (normalized) returns nothing. */
export const MAX_QUERY_LENGTH = 256;
/** Words kept per item for the ranked stage: the metadata first, then the synopsis and the content. */
export const MAX_CONTENT_TERMS = 96;
/**
 * Suffixes are stored up to this many characters. A longer substring query matches on its first
 * SUFFIX_LENGTH characters through the index and is then confirmed against the whole term.
 */
export const SUFFIX_LENGTH = 16;
/**
 * Typo rows: a metadata word of at least TYPO_MIN_LENGTH Latin letters is also indexed as written (unstemmed:
 * a typo can break a suffix) and under each of its one-letter deletions, marked so no query word can equal
 * one by accident (normalized text has no '~'). One edit between two spellings means they share a deletion,
 * or one is a deletion of the other.
 */
export const TYPO_MARK = '~';
export const TYPO_MIN_LENGTH = 5;
const MAX_TYPO_WORDS = 12;

export type TermField = 'title' | 'alias' | 'keyword';

export interface ItemTerms {
  /** Whole normalized metadata terms, and their canonical forms (exact and prefix matching). */
  metadata: { term: string; field: TermField }[];
  /** Suffixes of the metadata terms that start on a word boundary (substring matching through an index). */
  suffixes: string[];
  /**
   * Words of every field, the phrase rows of short metadata terms, the typo rows of metadata words and the answer-type
   * rows of what the text states: a quantity, a name form, a time, a reason, a person, steps, the versions of
   * named things (ranked matching).
   */
  content: string[];
}

export interface TermSource {
  title: string;
  aliases: string[];
  keywords: string[];
  content: string;
  synopsis: string;
}

/**
 * The search terms of one item revision. Metadata terms are stored whole, in their normalized and their
 * canonical form ("Integration tests" → "integration tests", "integration test"). The substring stage needs
 * an index of its own, so the suffixes of every metadata term that start a word are stored too: "q is inside
 * term at a word boundary" becomes "some suffix of term starts with q", a range scan on a B-tree. Chinese
 * has no spaces, so every Chinese character starts a suffix; a Latin word starts one only at its beginning
 * ("api" is not inside "rapid", "go" not inside "mongo").
 */
export function buildItemTerms(input: TermSource): ItemTerms {
  const metadata = new Map<string, TermField>();
  const add = (text: string, field: TermField): void => {
    for (const term of [normalizeText(text), canonicalText(text)]) {
      if (term.length > 0 && term.length <= MAX_QUERY_LENGTH * 2 && !metadata.has(term)) metadata.set(term, field);
    }
  };
  add(input.title, 'title');
  for (const alias of input.aliases) add(alias, 'alias');
  for (const keyword of input.keywords) add(keyword, 'keyword');
  const suffixes = new Set<string>();
  for (const term of metadata.keys()) {
    const chars = Array.from(term);
    for (let i = 1; i < chars.length; i += 1) {
      if (chars[i] === ' ' || !(startsCjk(chars[i]!) || chars[i - 1] === ' ' || startsCjk(chars[i - 1]!))) continue;
      suffixes.add(chars.slice(i, i + SUFFIX_LENGTH).join(''));
    }
  }
  const metadataText = [input.title, ...input.aliases, ...input.keywords].join('\n');
  const metadataWords = indexWords(metadataText);
  const content = new Set(metadataWords);
  for (const word of indexWords(`${input.synopsis}\n${input.content}`)) {
    if (content.size >= MAX_CONTENT_TERMS) break;
    content.add(word);
  }
  // M-7.7: a multi-word query matches a short metadata term when the term's words are among its words.
  for (const text of [input.title, ...input.aliases, ...input.keywords]) {
    const words = [...new Set(phraseWords(text))];
    if (words.length >= 2 && words.length <= MAX_PHRASE_WORDS) content.add(phraseKey(words));
  }
  // M-7.7: an item that states a kind of answer may answer a question for one ("保留多久", "how are topics named",
  // "why", "when", "who", "the steps", "which Go version").
  for (const row of statedAnswerRows(`${metadataText}\n${input.synopsis}\n${input.content}`)) content.add(row);
  let typoWords = 0;
  for (const word of spellings(metadataText)) {
    if (typoWords >= MAX_TYPO_WORDS) break;
    if (Array.from(word).length < TYPO_MIN_LENGTH) continue;
    typoWords += 1;
    content.add(TYPO_MARK + word);
    for (const variant of deletions(word)) content.add(TYPO_MARK + variant);
  }
  return {
    metadata: [...metadata].map(([term, field]) => ({ term, field })),
    suffixes: [...suffixes],
    content: [...content],
  };
}
