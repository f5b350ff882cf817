import { TERM_RULES_VERSION } from '../../shared/search-words.js';
import type { Connection } from './connection.js';

// Chinese words come from ICU's dictionary (Intl.Segmenter): another ICU major version may split them
// differently, and a revise or forget finds an item's rows again by computing them, so the version is part of
// the format.
const ICU_MAJOR = Number.parseInt(process.versions.icu ?? '0', 10) & 0xff;

/**
 * The format of the search-term rows (`memory_terms`, `memory_term_suffixes`, `memory_content_terms`), kept in
 * the database header's application id: no table or column is added, so the Memory v2 catalog stays exact.
 * Term rows are derived data; rows an older format wrote are written again from the items (store/reindex.ts).
 * 'AP', the version of the word rules (shared/search-words: stop and general words, the glossary), the ICU
 * major version.
 */
export const TERM_FORMAT = (0x4150 << 16) | (TERM_RULES_VERSION << 8) | ICU_MAJOR;

/** True when the term rows were written in the current format. */
export function termsCurrent(conn: Connection): boolean {
  return conn.db.pragma('application_id', { simple: true }) === TERM_FORMAT;
}

/** Records that the term rows are in the current format (inside the transaction that made them so). */
export function markTermsCurrent(conn: Connection): void {
  conn.db.pragma(`application_id = ${TERM_FORMAT}`);
}
