import { contentTerms, normalizeText } from '../../shared/text.js';

/** M-7.4: a query longer than this (normalized) returns nothing. */
export const MAX_QUERY_LENGTH = 256;
/** Content terms kept per item: they only top up short results, so the salient first ones suffice. */
export const MAX_CONTENT_TERMS = 48;
/** Query content terms used by the content stage. */
export const MAX_QUERY_CONTENT_TERMS = 8;
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

/** The normalized query and its forms for each search stage; null when the query must return []. */
export interface PreparedQuery {
  text: string;
  /** Upper bound of the prefix range: every string that starts with `text` sorts below it. */
  upper: string;
  /** The query cut to the stored suffix length, for the substring index range. */
  suffixKey: string;
  suffixUpper: string;
  /** Distinct content terms, longest first (longer terms are usually rarer). */
  content: string[];
}

const MAX_CHAR = String.fromCodePoint(0x10ffff);

export function prepareQuery(query: string): PreparedQuery | null {
  const text = normalizeText(query);
  if (text.length === 0 || Array.from(text).length > MAX_QUERY_LENGTH) return null;
  const suffixKey = Array.from(text).slice(0, SUFFIX_LENGTH).join('');
  const content = contentTerms(text, 64)
    .sort((a, b) => b.length - a.length)
    .slice(0, MAX_QUERY_CONTENT_TERMS);
  return { text, upper: text + MAX_CHAR, suffixKey, suffixUpper: suffixKey + MAX_CHAR, content };
}
