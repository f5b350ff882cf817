import { MemoryNotFoundError } from '../../shared/errors.js';
import type { Connection } from '../db/connection.js';
import { type TermSource, buildItemTerms } from './item-terms.js';
import { requireActiveThread } from './threads.js';
import type { ForgetResult, ItemRecord, ItemStatus, MemoryItemSummary, MemoryKind } from '../types.js';

/** A `memory_items` row as SQLite returns it; it leaves this module as an `ItemRecord` (see `toItemRecord`). */
interface ItemRow {
  id: string;
  revision: number;
  kind: MemoryKind;
  status: ItemStatus;
  is_current: number;
  thread_id: string | null;
  title: string;
  content: string;
  synopsis: string;
  aliases: string;
  keywords: string;
  non_factual: number;
  supersedes_id: string | null;
  superseded_by_id: string | null;
  consolidation_job_id: string;
  created_at: number;
  updated_at: number;
}

const ITEM_COLUMN_NAMES = [
  'id',
  'revision',
  'kind',
  'status',
  'is_current',
  'thread_id',
  'title',
  'content',
  'synopsis',
  'aliases',
  'keywords',
  'non_factual',
  'supersedes_id',
  'superseded_by_id',
  'consolidation_job_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ItemRow)[];
/** The columns of an `ItemRow`, unqualified and of `memory_items i`. */
const ITEM_COLUMNS = ITEM_COLUMN_NAMES.join(', ');
const ITEM_COLUMNS_OF_I = ITEM_COLUMN_NAMES.map((column) => `i.${column}`).join(', ');

/** An item revision as the rest of Memory sees it, its JSON lists parsed. */
function toItemRecord(row: ItemRow): ItemRecord {
  return {
    id: row.id,
    revision: row.revision,
    kind: row.kind,
    status: row.status,
    isCurrent: row.is_current === 1,
    threadId: row.thread_id,
    title: row.title,
    content: row.content,
    synopsis: row.synopsis,
    aliases: JSON.parse(row.aliases) as string[],
    keywords: JSON.parse(row.keywords) as string[],
    nonFactual: row.non_factual === 1,
    supersedesId: row.supersedes_id,
    supersededById: row.superseded_by_id,
    consolidationJobId: row.consolidation_job_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The text fields of an item revision. */
export function itemText(item: ItemRecord): { title: string; content: string; synopsis: string; aliases: string[]; keywords: string[] } {
  return { title: item.title, content: item.content, synopsis: item.synopsis, aliases: item.aliases, keywords: item.keywords };
}

/** The current revision of an item, whatever its status. */
export function findCurrentItem(conn: Connection, id: string): ItemRecord | null {
  const row = conn.stmt<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM memory_items WHERE id = ? AND is_current = 1`).get(id);
  return row ? toItemRecord(row) : null;
}

/** Every revision of an item, oldest first, whatever its status. */
export function itemRevisions(conn: Connection, id: string): ItemRecord[] {
  return conn.stmt<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM memory_items WHERE id = ? ORDER BY revision`).all(id).map(toItemRecord);
}

/** Shortest prefix people may type to name a memory (INTERFACES.md §1). */
export const MIN_ID_PREFIX = 4;

/** Resolves an id or a unique prefix of at least 4 characters to a memory id. */
export function resolveItemId(conn: Connection, input: string): string {
  const wanted = input.trim().toLowerCase();
  if (wanted.length === 0) throw new MemoryNotFoundError(input, 'No memory id given');
  const exact = conn.stmt<{ id: string }>('SELECT id FROM memory_items WHERE id = ? AND is_current = 1').get(wanted);
  if (exact) return exact.id;
  if (wanted.length < MIN_ID_PREFIX) {
    throw new MemoryNotFoundError(input, `No memory has id '${input}' (a prefix needs at least ${MIN_ID_PREFIX} characters)`);
  }
  const rows = conn
    .stmt<{ id: string }>('SELECT id FROM memory_items WHERE is_current = 1 AND id >= ? AND id < ? ORDER BY id LIMIT 3')
    .all(wanted, wanted + String.fromCodePoint(0x10ffff));
  if (rows.length === 1) return rows[0]!.id;
  if (rows.length === 0) throw new MemoryNotFoundError(input);
  throw new MemoryNotFoundError(input, `'${input}' matches several memories (${rows.map((r) => r.id).join(', ')}…); type more of the id`);
}

/** A revision to append: the fields of its record that are not derived, its candidates and the time. */
export type NewRevision = Pick<
  ItemRecord,
  | 'id'
  | 'revision'
  | 'kind'
  | 'threadId'
  | 'title'
  | 'content'
  | 'synopsis'
  | 'aliases'
  | 'keywords'
  | 'supersedesId'
  | 'consolidationJobId'
> & { candidateIds: string[]; now: number };

/**
 * Appends an item revision (M-6.2: rows are never edited, a trigger enforces it), links its candidates
 * as provenance and indexes its search terms. The previous current revision, if any, must already have
 * been retired with `retireRevision`.
 */
export function insertRevision(conn: Connection, input: NewRevision): void {
  conn
    .stmt(
      `INSERT INTO memory_items (id, revision, kind, status, is_current, thread_id, title, content, synopsis, aliases,
                                 keywords, non_factual, supersedes_id, consolidation_job_id, created_at, updated_at)
       VALUES (?, ?, ?, 'active', 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      input.id,
      input.revision,
      input.kind,
      input.threadId,
      input.title,
      input.content,
      input.synopsis,
      JSON.stringify(input.aliases),
      JSON.stringify(input.keywords),
      input.kind === 'discussion_context' ? 1 : 0,
      input.supersedesId,
      input.consolidationJobId,
      input.now,
      input.now,
    );
  const link = conn.stmt('INSERT OR IGNORE INTO memory_item_candidates (item_id, revision, candidate_id) VALUES (?, ?, ?)');
  for (const candidateId of input.candidateIds) link.run(input.id, input.revision, candidateId);
  indexTerms(conn, input.id, input.threadId, input);
}

/** The verified quotes behind an item, over all its revisions (M-6.4: a revision keeps what they back). */
export function itemEvidenceQuotes(conn: Connection, itemId: string): string[] {
  return conn
    .stmt<{ quote: string }>(
      `SELECT cs.quote FROM memory_item_candidates mic JOIN candidate_sources cs ON cs.candidate_id = mic.candidate_id
        WHERE mic.item_id = ? LIMIT 64`,
    )
    .all(itemId)
    .map((r) => r.quote);
}

/** Links more candidates to an item's current revision as extra evidence (a repeated statement, M-6.4). */
export function addEvidence(conn: Connection, itemId: string, revision: number, candidateIds: string[]): void {
  const link = conn.stmt('INSERT OR IGNORE INTO memory_item_candidates (item_id, revision, candidate_id) VALUES (?, ?, ?)');
  for (const candidateId of candidateIds) link.run(itemId, revision, candidateId);
}

/**
 * Writes the search terms of an active item: one statement per term table, the rows passed as JSON.
 * Only active items have terms, so a retired, superseded or forgotten item leaves search at once.
 */
export function indexTerms(conn: Connection, itemId: string, threadId: string | null, source: TermSource): void {
  const terms = buildItemTerms(source);
  conn
    .stmt(
      `INSERT OR IGNORE INTO memory_terms (term, item_id, field, thread_id)
       SELECT json_extract(value, '$[0]'), ?, json_extract(value, '$[1]'), ? FROM json_each(?)`,
    )
    .run(itemId, threadId, JSON.stringify(terms.metadata.map((t) => [t.term, t.field])));
  conn
    .stmt('INSERT OR IGNORE INTO memory_term_suffixes (suffix, item_id, thread_id) SELECT value, ?, ? FROM json_each(?)')
    .run(itemId, threadId, JSON.stringify(terms.suffixes));
  conn
    .stmt('INSERT OR IGNORE INTO memory_content_terms (term, item_id, thread_id) SELECT value, ?, ? FROM json_each(?)')
    .run(itemId, threadId, JSON.stringify(terms.content));
}

/**
 * Writes the search terms of every active item, a page at a time: a Memory restored from an export, whose
 * term tables are derived data and not part of the export, gets them exactly as consolidation writes them.
 */
export function indexActiveItems(conn: Connection): number {
  const page = conn.stmt<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM memory_items WHERE is_current = 1 AND status = 'active' AND id > ? ORDER BY id LIMIT 500`,
  );
  let indexed = 0;
  for (let rows = page.all(''); rows.length > 0; rows = page.all(rows[rows.length - 1]!.id)) {
    for (const row of rows) indexTerms(conn, row.id, row.thread_id, itemText(toItemRecord(row)));
    indexed += rows.length;
  }
  return indexed;
}

/**
 * Removes the search terms of an item's current revision. The suffix and content tables have no index by
 * item (it would double their write cost), so their rows are found again from the revision's own fields
 * through their primary keys; the metadata table is indexed by item and is cleared whole. Search also
 * joins the item's status, so nothing inactive is ever returned even if a row were left behind.
 */
export function dropTerms(conn: Connection, itemId: string): void {
  const row = conn
    .stmt<{ title: string; aliases: string; keywords: string; content: string; synopsis: string }>(
      'SELECT title, aliases, keywords, content, synopsis FROM memory_items WHERE id = ? AND is_current = 1',
    )
    .get(itemId);
  conn.stmt('DELETE FROM memory_terms WHERE item_id = ?').run(itemId);
  if (!row) return;
  const terms = buildItemTerms({
    title: row.title,
    aliases: JSON.parse(row.aliases) as string[],
    keywords: JSON.parse(row.keywords) as string[],
    content: row.content,
    synopsis: row.synopsis,
  });
  conn
    .stmt('DELETE FROM memory_term_suffixes WHERE item_id = ? AND suffix IN (SELECT value FROM json_each(?))')
    .run(itemId, JSON.stringify(terms.suffixes));
  conn
    .stmt('DELETE FROM memory_content_terms WHERE item_id = ? AND term IN (SELECT value FROM json_each(?))')
    .run(itemId, JSON.stringify(terms.content));
}

/** A revise: the current revision stops being current (status 'superseded' marks an old revision). */
export function retireRevision(conn: Connection, itemId: string, now: number): number {
  dropTerms(conn, itemId);
  const row = conn
    .stmt<{ revision: number }>(
      `UPDATE memory_items SET is_current = 0, status = 'superseded', updated_at = ?
        WHERE id = ? AND is_current = 1 AND status = 'active' RETURNING revision`,
    )
    .get(now, itemId);
  if (!row) throw new MemoryNotFoundError(itemId, `memory ${itemId} is not active`);
  return row.revision;
}

/** A supersede: the whole item is replaced by another item. */
export function markSuperseded(conn: Connection, itemId: string, byId: string, now: number): void {
  dropTerms(conn, itemId);
  const changed = conn
    .stmt(
      `UPDATE memory_items SET status = 'superseded', superseded_by_id = ?, updated_at = ?
        WHERE id = ? AND is_current = 1 AND status = 'active'`,
    )
    .run(byId, now, itemId).changes;
  if (changed !== 1) throw new MemoryNotFoundError(itemId, `memory ${itemId} is not active`);
}

/**
 * M-6.3: forgetting takes the item out of routing and search at once and suppresses every candidate that
 * ever supported it, so its old evidence cannot build it again. RAW turns are never touched.
 */
export function forgetItem(conn: Connection, itemId: string, now: number): ForgetResult {
  return conn.immediate(() => {
    const current = findCurrentItem(conn, itemId);
    if (!current || current.status !== 'active') {
      throw new MemoryNotFoundError(itemId, `memory ${itemId} is ${current ? current.status : 'unknown'}, not active`);
    }
    dropTerms(conn, itemId);
    conn.stmt("UPDATE memory_items SET status = 'forgotten', updated_at = ? WHERE id = ? AND is_current = 1").run(now, itemId);
    const suppressed = conn
      .stmt(
        `UPDATE memory_candidates SET status = 'suppressed', updated_at = ?
          WHERE id IN (SELECT candidate_id FROM memory_item_candidates WHERE item_id = ?)`,
      )
      .run(now, itemId).changes;
    // The rolling compaction of a thread that already summarized the item's source turns may repeat what is
    // being forgotten: it is emptied (its sequence stays, so no older batch can write it back).
    const reset = conn
      .stmt(
        `UPDATE threads SET compaction = '', updated_at = ?
          WHERE compaction <> '' AND id IN (
            SELECT t.thread_id FROM memory_item_candidates mic
              JOIN candidate_sources cs ON cs.candidate_id = mic.candidate_id
              JOIN turns t ON t.id = cs.turn_id
             WHERE mic.item_id = ? AND t.sequence <= threads.compaction_sequence)`,
      )
      .run(now, itemId).changes;
    return {
      id: itemId,
      title: current.title,
      kind: current.kind,
      suppressedCandidates: suppressed,
      compactionsReset: reset,
      rawTurnsKept: true,
    };
  });
}

/** The columns a summary needs (content, aliases and keywords stay on disk). */
const SUMMARY_COLUMNS = 'id, kind, status, title, synopsis, thread_id, revision, updated_at';

/**
 * Active preferences and decisions, and the given thread's active discussions, newest first: one query per
 * kind on `memory_items_active` (kind, thread_id, updated_at), so the rows come in index order and only ties
 * are sorted (preferences and decisions have no thread, discussions exactly one).
 */
export function listActiveItems(conn: Connection, threadId: string): MemoryItemSummary[] {
  const query = conn.stmt<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM memory_items WHERE status = 'active' AND kind = ? AND thread_id IS ? ORDER BY updated_at DESC, id`,
  );
  return [...query.all('user_preference', null), ...query.all('project_decision', null), ...query.all('discussion_context', threadId)].map(
    summarize,
  );
}

/** The usable derived memories: active preferences, decisions and the active thread's discussions. */
export function listUsableItems(conn: Connection): MemoryItemSummary[] {
  return conn.read(() => listActiveItems(conn, requireActiveThread(conn).id));
}

type SummaryRow = Pick<ItemRow, 'id' | 'kind' | 'status' | 'title' | 'synopsis' | 'thread_id' | 'revision' | 'updated_at'>;

function summarize(row: SummaryRow): MemoryItemSummary {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    title: row.title,
    synopsis: row.synopsis,
    threadId: row.thread_id,
    revision: row.revision,
    updatedAt: row.updated_at,
  };
}

/** Usable items by kind: active preferences and decisions, and the active thread's discussions. */
export function countUsableItems(conn: Connection, activeThreadId: string | null): Record<MemoryKind, number> {
  const out: Record<MemoryKind, number> = { user_preference: 0, project_decision: 0, discussion_context: 0 };
  const rows = conn
    .stmt<{ kind: MemoryKind; n: number }>(
      `SELECT kind, count(*) AS n FROM memory_items
        WHERE status = 'active' AND (kind <> 'discussion_context' OR thread_id = ?)
        GROUP BY kind`,
    )
    .all(activeThreadId);
  for (const row of rows) out[row.kind] = row.n;
  return out;
}

/** The most recently updated active items of a kind (and thread, for discussions). */
export function recentActiveItems(conn: Connection, kind: MemoryKind, threadId: string | null, limit: number): ItemRecord[] {
  return conn
    .stmt<ItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM memory_items WHERE status = 'active' AND kind = ? AND thread_id IS ? ORDER BY updated_at DESC LIMIT ?`,
    )
    .all(kind, threadId, limit)
    .map(toItemRecord);
}

/**
 * Active items of a kind and scope indexed under a whole normalized metadata term. The plan starts from the
 * term (a seek on the term index, a handful of rows) and reaches each item through its current-revision
 * index; CROSS JOIN keeps SQLite from starting at the kind's active items instead (a scan that grows with
 * the Memory).
 */
export function activeItemsWithTitleTerm(conn: Connection, term: string, kind: MemoryKind, threadId: string | null): ItemRecord[] {
  return conn
    .stmt<ItemRow>(
      `SELECT ${ITEM_COLUMNS_OF_I} FROM memory_terms t
        CROSS JOIN memory_items i ON i.id = t.item_id AND i.is_current = 1
        WHERE t.term = ? AND i.status = 'active' AND i.kind = ? AND i.thread_id IS ?`,
    )
    .all(term, kind, threadId)
    .map(toItemRecord);
}
