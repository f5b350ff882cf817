import { contentTerms, normalizeText } from '../../shared/text.js';
import { MAX_QUERY_LENGTH, SUFFIX_LENGTH } from '../store/item-terms.js';

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

/** Query content terms used by the content stage. */
export const MAX_QUERY_CONTENT_TERMS = 8;

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
