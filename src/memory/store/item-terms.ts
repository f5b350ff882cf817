import { contentTerms, normalizeText } from '../../shared/text.js';

/**
 * The search terms an item revision is indexed under (M-7.2). They live with the store, which writes them;
 * retrieval reads them back through the same limits.
 */

/** M-7.4: a query longer than this (normalized) returns nothing. */
export const MAX_QUERY_LENGTH = 256;
/** Content terms kept per item: they only top up short results, so the salient first ones suffice. */
export const MAX_CONTENT_TERMS = 48;
/**
 * Suffixes are stored up to this many characters. A longer substring query matches on its first
 * SUFFIX_LENGTH characters through the index and is then confirmed against the whole term.
 */
export const SUFFIX_LENGTH = 16;

export type TermField = 'title' | 'alias' | 'keyword';

export interface ItemTerms {
  /** Whole normalized metadata terms (exact and prefix matching). */
  metadata: { term: string; field: TermField }[];
  /** Every suffix of every metadata term, bounded in length (substring matching through an index). */
  suffixes: string[];
  /** Bounded content terms (top-up matching). */
  content: string[];
}

/**
 * The search terms of one item revision (M-7.2). Metadata terms are stored whole; the substring stage
 * needs an index of its own, so every suffix of every metadata term is stored too: "q is a substring of
 * term" becomes "some suffix of term starts with q", a range scan on a B-tree instead of a scan of all terms.
 */
export function buildItemTerms(input: { title: string; aliases: string[]; keywords: string[]; content: string }): ItemTerms {
  const metadata = new Map<string, TermField>();
  const add = (text: string, field: TermField): void => {
    const term = normalizeText(text);
    if (term.length > 0 && term.length <= MAX_QUERY_LENGTH * 2 && !metadata.has(term)) metadata.set(term, field);
  };
  add(input.title, 'title');
  for (const alias of input.aliases) add(alias, 'alias');
  for (const keyword of input.keywords) add(keyword, 'keyword');
  const suffixes = new Set<string>();
  for (const term of metadata.keys()) {
    const chars = Array.from(term);
    for (let i = 1; i < chars.length; i += 1) {
      if (chars[i] === ' ') continue;
      suffixes.add(chars.slice(i, i + SUFFIX_LENGTH).join(''));
    }
  }
  return {
    metadata: [...metadata].map(([term, field]) => ({ term, field })),
    suffixes: [...suffixes],
    content: contentTerms(`${input.title}\n${input.content}`, MAX_CONTENT_TERMS),
  };
}
