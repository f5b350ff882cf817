import type { Connection } from '../db/connection.js';
import type { SearchHit } from '../types.js';
import { type PreparedQuery, prepareQuery, rankedForms } from './terms.js';

/** M-7.1: at most this many hits. */
export const MAX_SEARCH_HITS = 5;
// Rows a stage reads from a term index before grouping; enough for 5 distinct items after duplicates.
const STAGE_SCAN_LIMIT = 64;
/**
 * Postings of one word the ranked stage reads, at most (bounded work, M-7.7). A word in more items than this
 * is common: it never proposes items, it only adds its weight to items a rarer word proposed.
 */
export const POSTING_LIMIT = 128;
// Items the rarer words propose for scoring, at most.
const CANDIDATE_LIMIT = 32;
/**
 * M-7.5 / M-7.7: an item needs this share of the query's weight (the IDF of its words), so one common word
 * of a long query never carries a hit …
 */
export const MIN_QUERY_SHARE = 0.5;
/**
 * … which depends on how many words the query has. A short query (SHORT_QUERY_WORDS words or fewer) is all
 * subject and aspect: an item needs SHORT_QUERY_SHARE of it, so a near miss that names a remembered subject
 * and an aspect no memory has is no answer. Each word more lowers the share by QUERY_SHARE_STEP, down to
 * LONG_QUERY_SHARE from LONG_QUERY_WORDS words on: a long question says most of its words otherwise than the
 * memory does (its frame, its own wording of the situation). The item still needs two of its words, or
 * MIN_SINGLE_SHARE with one, and MIN_TOP_SHARE of the best score. A query of four words needs MIN_QUERY_SHARE.
 */
export const SHORT_QUERY_WORDS = 3;
export const SHORT_QUERY_SHARE = 0.6;
export const QUERY_SHARE_STEP = 0.1;
export const LONG_QUERY_WORDS = 7;
export const LONG_QUERY_SHARE = 0.2;

/** The share of the query's weight an item holding two of its words or more needs (see MIN_QUERY_SHARE). */
export function queryShare(forms: PreparedQuery['forms']): number {
  // Words as an item's are counted: an identifier's parts, or the Chinese words of one glossary form, are one.
  const words = new Set(forms.filter((f) => f[2] === 0).map((f) => f[9])).size;
  const past = Math.min(Math.max(words, SHORT_QUERY_WORDS), LONG_QUERY_WORDS) - SHORT_QUERY_WORDS;
  return Math.round((SHORT_QUERY_SHARE - past * QUERY_SHARE_STEP) * 100) / 100;
}

/**
 * An item that holds only one of the query's words (one unit: an identifier's parts count as one) needs this
 * share: a near miss names a remembered subject and an aspect no memory has ("coupon expiration rules"), and
 * one shared word is its whole match.
 */
export const MIN_SINGLE_SHARE = 0.6;
/**
 * An item that holds a short metadata term whose words are all in the query (a phrase row) needs this share of
 * the query's weight: "commit message" in "how should I write commit messages here" is most of the question, a
 * keyword met in a question whose other words no memory has names only its subject, not what is asked about it.
 */
export const MIN_PHRASE_SHARE = 0.3;
/** … and this share of the best item's score: what ranks far below the best match is not returned. */
export const MIN_TOP_SHARE = 0.8;

// SQL: a term row of a repo-wide item or of the request's thread; `VISIBLE_CONTENT` is the same for `memory_content_terms c`.
const VISIBLE = '(thread_id IS NULL OR thread_id = :thread)';
const VISIBLE_CONTENT = '(c.thread_id IS NULL OR c.thread_id = :thread)';
// CROSS JOIN: the hits come first and each reaches its item through the current-revision index; a plain join may
// let SQLite start from the active items of a kind instead, a scan that grows with the Memory.
const ITEM_JOIN = `CROSS JOIN memory_items i ON i.id = s.item_id AND i.is_current = 1 WHERE i.status = 'active'`;

// Stage 1 (M-7.4): exact and prefix hits on whole metadata terms, in the query's normalized and canonical forms.
const EXACT_PREFIX_SQL = `
WITH s AS (
  SELECT item_id, min(rank) AS rank FROM (
    SELECT item_id, 0 AS rank FROM (
      SELECT item_id FROM memory_terms WHERE term IN (:q, :canonical) AND ${VISIBLE} LIMIT ${STAGE_SCAN_LIMIT})
    UNION ALL
    SELECT item_id, 1 AS rank FROM (
      SELECT item_id FROM memory_terms WHERE term > :low1 AND term < :high1 AND ${VISIBLE} LIMIT ${STAGE_SCAN_LIMIT})
    UNION ALL
    SELECT item_id, 1 AS rank FROM (
      SELECT item_id FROM memory_terms WHERE term > :low2 AND term < :high2 AND ${VISIBLE} LIMIT ${STAGE_SCAN_LIMIT})
  ) GROUP BY item_id
)
SELECT i.id, i.kind, i.title, i.synopsis, CASE s.rank WHEN 0 THEN 'exact' ELSE 'prefix' END AS match
  FROM s ${ITEM_JOIN}
 ORDER BY s.rank, i.updated_at DESC, i.id
 LIMIT ${MAX_SEARCH_HITS}`;

// Stage 2: substring hits through the suffix index (suffixes start on word boundaries), excluding items
// already chosen. A query longer than the stored suffix length is confirmed against the whole term.
const SUBSTRING_SQL = `
SELECT i.id, i.kind, i.title, i.synopsis, 'substring' AS match
  FROM (SELECT DISTINCT x.item_id FROM memory_term_suffixes x
         WHERE ((x.suffix >= :low1 AND x.suffix < :high1) OR (x.suffix >= :low2 AND x.suffix < :high2))
           AND (x.thread_id IS NULL OR x.thread_id = :thread)
           AND x.item_id NOT IN (SELECT value FROM json_each(:chosen))
           AND (:exactKey OR EXISTS (SELECT 1 FROM memory_terms t WHERE t.item_id = x.item_id
                                       AND (instr(t.term, :q) > 0 OR instr(t.term, :canonical) > 0)))
         LIMIT ${MAX_SEARCH_HITS}) s
  ${ITEM_JOIN}
 LIMIT ${MAX_SEARCH_HITS}`;

/**
 * Stage 3: ranked content hits (M-7.7). Every query word weighs its IDF, from its document frequency in the
 * term postings (counted up to POSTING_LIMIT; an unknown word weighs like the rarest known one). Words in
 * fewer items than the limit propose candidates from their postings; common words are then probed for those
 * candidates only, through the primary key. An item scores the weight of the words it has (a typo match
 * counts TYPO_FACTOR of it, and typo forms are only looked at for words no item has; the parts of an
 * identifier count only together, "react-native-svg" is one name). The weight of the words it holds (a typo match
 * in full: a misspelt word is the word asked for, it only ranks below the word spelt right) needs queryShare() of the query's
 * weight and a word of full weight (a subject, not only general words), or a short metadata term whose words
 * are all among the query's words (a phrase row) and MIN_PHRASE_SHARE of the weight, and MIN_TOP_SHARE of the
 * best such score. A question for a quantity or a name form ("保留多久", "how are topics named") is answered only by an
 * item whose text states one (its answer-type row, shared/search-answer-types): a memory about the subject that gives
 * no number, or no form of a name, is about another aspect of it. An unknown word
 * weighing like the rarest is deliberate: it is most often the subject no memory is about, and the words an
 * item holds carry a hit only when they weigh as much. When every word is common the candidates are the first
 * postings of the rarest one: such a query says too little to rank a large Memory by.
 */
function rankedCte(checkAnswerTypes: boolean): string {
  return `
WITH q(g, term, kind, factor, u, n, m, unknown, guess, wk) AS (
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
         json_extract(value, '$[4]'), json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]'),
         json_extract(value, '$[8]'), json_extract(value, '$[9]')
    FROM json_each(:forms)),
wkeys AS MATERIALIZED (SELECT g, max(wk) AS wk FROM q WHERE kind < 3 GROUP BY g),
n(total) AS (SELECT max(coalesce((SELECT max(rowid) FROM memory_items), 1), 1) * 1.0),
words AS MATERIALIZED (
  SELECT g, term, kind, factor, u, n, m, unknown, guess,
         (SELECT count(*) FROM (SELECT 1 FROM memory_content_terms c WHERE c.term = q.term LIMIT ${POSTING_LIMIT})) AS df
    FROM q WHERE kind < 2),
weights AS MATERIALIZED (
  SELECT g, max(df) AS df, max(m) >= 1 OR (max(guess) = 1 AND max(df) > 0) AS subject,
         max(m) * CASE WHEN max(df) = 0 THEN min(unknown) ELSE 1 END
           * ln(1 + (n.total - min(max(max(df), 1), n.total) + 0.5) / (min(max(max(df), 1), n.total) + 0.5)) AS w
    FROM words, n GROUP BY g),
typos AS MATERIALIZED (
  SELECT q.g, q.term, q.kind, q.factor, q.u, q.n,
         (SELECT count(*) FROM (SELECT 1 FROM memory_content_terms c WHERE c.term = q.term LIMIT ${POSTING_LIMIT})) AS df
    FROM q JOIN weights ON weights.g = q.g WHERE q.kind = 2 AND weights.df = 0),
forms AS MATERIALIZED (
  SELECT g, term, factor, df, u, n FROM words WHERE df > 0 UNION ALL SELECT g, term, factor, df, u, n FROM typos WHERE df > 0),
rare AS MATERIALIZED (
  SELECT f.g, f.factor, f.u, f.n, c.item_id FROM forms f JOIN memory_content_terms c ON c.term = f.term
   WHERE f.df < ${POSTING_LIMIT} AND (c.thread_id IS NULL OR c.thread_id = :thread)),
phrases AS MATERIALIZED (
  SELECT DISTINCT c.item_id FROM q JOIN memory_content_terms c ON c.term = q.term
   WHERE q.kind = 3 AND (c.thread_id IS NULL OR c.thread_id = :thread) LIMIT ${CANDIDATE_LIMIT}),
candidates AS MATERIALIZED (
  SELECT item_id FROM phrases
  UNION
  SELECT item_id FROM (
    SELECT r.item_id FROM (SELECT item_id, g, max(factor) AS factor FROM rare GROUP BY item_id, g) r JOIN weights USING (g)
     GROUP BY r.item_id ORDER BY sum(weights.w * r.factor) DESC LIMIT ${CANDIDATE_LIMIT})
  UNION
  SELECT item_id FROM (
    SELECT c.item_id FROM memory_content_terms c
     WHERE c.term = (SELECT term FROM forms ORDER BY df, term LIMIT 1) AND ${VISIBLE_CONTENT}
     LIMIT ${CANDIDATE_LIMIT})
   WHERE NOT EXISTS (SELECT 1 FROM rare)),
matched AS (
  SELECT item_id, g, factor, u, n FROM rare WHERE item_id IN (SELECT item_id FROM candidates)
  UNION ALL
  SELECT k.item_id, f.g, f.factor, f.u, f.n FROM candidates k JOIN forms f ON f.df >= ${POSTING_LIMIT}
   WHERE EXISTS (SELECT 1 FROM memory_content_terms c WHERE c.term = f.term AND c.item_id = k.item_id)),
scored AS MATERIALIZED (
  SELECT item_id, sum(score) AS score, sum(held) AS held, max(subject) AS subject, count(DISTINCT wk) AS units FROM (
    SELECT m.item_id, sum(weights.w * m.factor) AS score, sum(weights.w) AS held, max(weights.subject) AS subject, count(*) AS parts,
           max(m.n) AS n,
           max(k.wk) AS wk
      FROM (SELECT item_id, g, max(factor) AS factor, max(u) AS u, max(n) AS n FROM matched GROUP BY item_id, g) m
      JOIN weights USING (g) JOIN wkeys k USING (g)
     GROUP BY m.item_id, m.u)
   WHERE parts >= n GROUP BY item_id),
eligible AS MATERIALIZED (
  SELECT item_id, score FROM scored
   WHERE ((subject AND held >= CASE WHEN units > 1 THEN :share ELSE :single END * (SELECT sum(w) FROM weights))
      OR (item_id IN (SELECT item_id FROM phrases) AND held >= :phraseShare * (SELECT sum(w) FROM weights)))
     ${checkAnswerTypes ? ANSWER_TYPE_CHECK : ''})
`;
}

// What the query asks a hit to state (a JSON list of lists of content rows: an answer type, the options of a choice),
// each row a primary-key probe per candidate; one row of every list is enough.
const ANSWER_TYPE_CHECK = `AND NOT EXISTS (SELECT 1 FROM json_each(:answerTypes) a WHERE NOT EXISTS (
           SELECT 1 FROM json_each(a.value) t JOIN memory_content_terms c ON c.term = t.value AND c.item_id = scored.item_id))`;

function contentSql(checkAnswerTypes: boolean): string {
  return `${rankedCte(checkAnswerTypes)}
SELECT i.id, i.kind, i.title, i.synopsis, 'content' AS match
  FROM eligible s ${ITEM_JOIN}
   AND s.item_id NOT IN (SELECT value FROM json_each(:chosen))
   AND s.score >= :topShare * (SELECT max(score) FROM eligible)
 ORDER BY s.score DESC, i.updated_at DESC, i.id
 LIMIT ${MAX_SEARCH_HITS}`;
}
// Two texts, so a query that asks for no answer type pays nothing for the check.
const CONTENT_SQL = contentSql(false);
const CONTENT_TYPED_SQL = contentSql(true);

// Limits are written into the SQL, never bound: a bound LIMIT makes SQLite prepare the statement again at
// every execution (about 1.4 ms for the ranked statement), a literal one does not.

/** Ranked preferences and decisions routing considers, at most. */
export const ROUTING_LIMIT = 40;

// The same scorer choosing what routing shows (M-8.3): preferences and decisions only, best first.
const ROUTING_SQL = `${rankedCte(false)}
SELECT i.id, i.kind, i.title, i.synopsis
  FROM scored s ${ITEM_JOIN}
   AND i.kind IN ('user_preference', 'project_decision')
   AND s.score >= :share * (SELECT sum(w) FROM weights)
 ORDER BY s.score DESC, i.updated_at DESC, i.id
 LIMIT ${ROUTING_LIMIT}`;

/** Words of the request (and of the thread summary) routing ranks by, at most. */
const ROUTING_WORDS = 12;
/** Routing needs less than a search hit: one rarer word of the request suffices to be preferred. */
const ROUTING_SHARE = 0.05;

/**
 * Active preferences and decisions ranked by the search scorer against a request's text, best first; only
 * items sharing a word with it. One statement; the caller fills up by recency.
 */
export function rankForRouting(conn: Connection, threadId: string, text: string): Omit<SearchHit, 'match'>[] {
  const forms = rankedForms(text, { maxWords: ROUTING_WORDS, typos: false });
  if (forms.length === 0) return [];
  return conn.stmt<Omit<SearchHit, 'match'>>(ROUTING_SQL).all({
    forms: JSON.stringify(forms),
    thread: threadId,
    share: ROUTING_SHARE,
    single: ROUTING_SHARE,
    phraseShare: 0,
  });
}

/** Ranked-stage thresholds; the defaults are the contract's, a caller may only make them stricter. */
export interface SearchOptions {
  /** False: metadata stages only (the consolidation's look for related items). */
  contentStage?: boolean;
}

function rangeParams(q: PreparedQuery['prefix']): Record<string, string> {
  const [first, second] = [q[0]!, q[1] ?? q[0]!];
  return {
    low1: first.low,
    high1: first.high,
    low2: second.low,
    high2: second.high,
  };
}

/**
 * `memory_search` (M-7.3 – M-7.5, M-7.7). At most three SELECT/WITH statements, each returning the hit
 * columns directly; no bootstrap query, no per-item query, no top-up by recency or importance. Only active
 * preferences/decisions and the bound thread's active discussions are visible: terms exist only for
 * active items and carry the discussion's thread.
 */
export function searchMemory(conn: Connection, threadId: string, query: string, options: SearchOptions = {}): SearchHit[] {
  const q = prepareQuery(query);
  if (!q) return [];
  const hits = conn.stmt<SearchHit>(EXACT_PREFIX_SQL).all({
    q: q.text,
    canonical: q.canonical,
    ...rangeParams(q.prefix),
    thread: threadId,
  });
  if (hits.length < MAX_SEARCH_HITS && q.substring.length > 0) {
    hits.push(
      ...conn
        .stmt<SearchHit>(SUBSTRING_SQL)
        .all({
          ...rangeParams(q.substring),
          exactKey: q.substringExact ? 1 : 0,
          q: q.text,
          canonical: q.canonical,
          thread: threadId,
          chosen: JSON.stringify(hits.map((h) => h.id)),
        })
        .slice(0, MAX_SEARCH_HITS - hits.length),
    );
  }
  if (hits.length < MAX_SEARCH_HITS && q.forms.length > 0 && options.contentStage !== false) {
    hits.push(
      ...conn
        .stmt<SearchHit>(q.answerTypes.length > 0 ? CONTENT_TYPED_SQL : CONTENT_SQL)
        .all({
          forms: JSON.stringify(q.forms),
          thread: threadId,
          chosen: JSON.stringify(hits.map((h) => h.id)),
          share: queryShare(q.forms),
          single: MIN_SINGLE_SHARE,
          topShare: MIN_TOP_SHARE,
          phraseShare: MIN_PHRASE_SHARE,
          ...(q.answerTypes.length > 0 ? { answerTypes: JSON.stringify(q.answerTypes) } : {}),
        })
        .slice(0, MAX_SEARCH_HITS - hits.length),
    );
  }
  return hits;
}
