import type { Connection } from '../db/connection.js';
import type { SearchHit } from '../types.js';
import { prepareQuery } from './terms.js';

/** M-7.1: at most this many hits. */
export const MAX_SEARCH_HITS = 5;
// Rows a stage reads from a term index before grouping; enough for 5 distinct items after duplicates.
const STAGE_SCAN_LIMIT = 64;
// Items of one posting list the content stage reads at most (see CONTENT_SQL).
const CONTENT_SCAN_LIMIT = 256;

const VISIBLE = '(thread_id IS NULL OR thread_id = :thread)';
const ITEM_JOIN = `JOIN memory_items i ON i.id = s.item_id AND i.is_current = 1 WHERE i.status = 'active'`;

// Stage 1 (M-7.4): exact and prefix hits on whole metadata terms.
const EXACT_PREFIX_SQL = `
WITH s AS (
  SELECT item_id, min(rank) AS rank FROM (
    SELECT item_id, 0 AS rank FROM (
      SELECT item_id FROM memory_terms WHERE term = :q AND ${VISIBLE} LIMIT ${STAGE_SCAN_LIMIT})
    UNION ALL
    SELECT item_id, 1 AS rank FROM (
      SELECT item_id FROM memory_terms WHERE term > :q AND term < :upper AND ${VISIBLE} LIMIT ${STAGE_SCAN_LIMIT})
  ) GROUP BY item_id
)
SELECT i.id, i.kind, i.title, i.synopsis, CASE s.rank WHEN 0 THEN 'exact' ELSE 'prefix' END AS match
  FROM s ${ITEM_JOIN}
 ORDER BY s.rank, i.updated_at DESC, i.id
 LIMIT ${MAX_SEARCH_HITS}`;

// Stage 2: substring hits through the suffix index, excluding items already chosen. A query longer than
// the stored suffix length is confirmed against the whole term.
const SUBSTRING_SQL = `
SELECT i.id, i.kind, i.title, i.synopsis, 'substring' AS match
  FROM (SELECT DISTINCT x.item_id FROM memory_term_suffixes x
         WHERE x.suffix >= :key AND x.suffix < :keyUpper AND (x.thread_id IS NULL OR x.thread_id = :thread)
           AND x.item_id NOT IN (SELECT value FROM json_each(:chosen))
           AND (:exactKey OR EXISTS (SELECT 1 FROM memory_terms t WHERE t.item_id = x.item_id AND instr(t.term, :q) > 0))
         LIMIT :limit) s
  ${ITEM_JOIN}
 LIMIT :limit`;

// Stage 3: content-term top-up. Every query term must be a content term of the item (a relational
// division that stops at the first missing term). The scan starts from the query term with the shortest
// posting list and reads at most CONTENT_SCAN_LIMIT of its items: a top-up is bounded work, and a query
// whose every term is that common says too little to rank by anyway.
const CONTENT_SQL = `
WITH q(term, ord) AS (SELECT value, key FROM json_each(:terms)),
pivot AS (
  SELECT term FROM q
   ORDER BY (SELECT count(*) FROM (SELECT 1 FROM memory_content_terms c WHERE c.term = q.term LIMIT ${CONTENT_SCAN_LIMIT})), ord
   LIMIT 1)
SELECT i.id, i.kind, i.title, i.synopsis, 'content' AS match
  FROM (SELECT p.item_id FROM (SELECT item_id, thread_id FROM memory_content_terms
                                WHERE term = (SELECT term FROM pivot) LIMIT ${CONTENT_SCAN_LIMIT}) p
         WHERE (p.thread_id IS NULL OR p.thread_id = :thread)
           AND p.item_id NOT IN (SELECT value FROM json_each(:chosen))
           AND NOT EXISTS (SELECT 1 FROM q WHERE NOT EXISTS (
                 SELECT 1 FROM memory_content_terms c2 WHERE c2.term = q.term AND c2.item_id = p.item_id))
         LIMIT :limit) s
  ${ITEM_JOIN}
 LIMIT :limit`;

/**
 * `memory_search` (M-7.3 – M-7.5). At most three SELECT/WITH statements, each returning the hit columns
 * directly; no bootstrap query, no per-item query, no top-up by recency or importance. Only active
 * preferences/decisions and the bound thread's active discussions are visible: terms exist only for
 * active items and carry the discussion's thread.
 */
export function searchMemory(conn: Connection, threadId: string, query: string, options: { contentStage?: boolean } = {}): SearchHit[] {
  const q = prepareQuery(query);
  if (!q) return [];
  const hits = conn.stmt<SearchHit>(EXACT_PREFIX_SQL).all({ q: q.text, upper: q.upper, thread: threadId });
  if (hits.length < MAX_SEARCH_HITS) {
    hits.push(
      ...conn.stmt<SearchHit>(SUBSTRING_SQL).all({
        key: q.suffixKey,
        keyUpper: q.suffixUpper,
        exactKey: q.suffixKey === q.text ? 1 : 0,
        q: q.text,
        thread: threadId,
        chosen: JSON.stringify(hits.map((h) => h.id)),
        limit: MAX_SEARCH_HITS - hits.length,
      }),
    );
  }
  if (hits.length < MAX_SEARCH_HITS && q.content.length > 0 && options.contentStage !== false) {
    hits.push(
      ...conn.stmt<SearchHit>(CONTENT_SQL).all({
        terms: JSON.stringify(q.content),
        thread: threadId,
        chosen: JSON.stringify(hits.map((h) => h.id)),
        limit: MAX_SEARCH_HITS - hits.length,
      }),
    );
  }
  return hits;
}
