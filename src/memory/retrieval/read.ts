import { MemoryNotFoundError, MemoryStorageError, describeError } from '../../shared/errors.js';
import type { Connection } from '../db/connection.js';
import { findCurrentItem, itemRevisions, itemText, resolveItemId } from '../store/items.js';
import type { ItemRecord, MemoryDetail, MemoryRevision, ProvenanceSource } from '../types.js';

/** M-7.6: a read shows at most this many provenance excerpts … */
export const MAX_READ_SOURCES = 3;
/** … each at most this long, centred on the verified quote. */
export const EXCERPT_LENGTH = 800;

interface SourceRow {
  turn_id: string;
  role: 'user' | 'assistant';
  quote: string;
  quote_start: number;
  sequence: number | null;
  thread_id: string | null;
  turn_created_at: number | null;
  text: string | null;
}

// The excerpt is cut in JavaScript, not with SQLite's substr()/length(): those stop at a NUL character, so
// a NUL before the quoted words would cut the excerpt short. quote_start counts code points.
const SOURCES_SQL = `
SELECT cs.turn_id, cs.role, cs.quote, cs.quote_start, t.sequence, t.thread_id, t.created_at AS turn_created_at,
       CASE cs.role WHEN 'user' THEN t.user_text ELSE t.assistant_text END AS text
  FROM memory_item_candidates mic
  JOIN candidate_sources cs ON cs.candidate_id = mic.candidate_id
  LEFT JOIN turns t ON t.id = cs.turn_id
 WHERE mic.item_id = ?
 ORDER BY mic.revision DESC, cs.role = 'assistant', cs.candidate_id, cs.ordinal
 LIMIT ?`;

/** A window of EXCERPT_LENGTH code points with the quote in its middle, "…" marking a cut at either end. */
export function excerptAround(text: string, quoteStart: number, quote: string): string {
  const chars = Array.from(text);
  const quoteLength = Array.from(quote).length;
  const start = Math.max(0, quoteStart - Math.max(0, Math.floor((EXCERPT_LENGTH - quoteLength) / 2)));
  let excerpt = chars.slice(start, start + EXCERPT_LENGTH);
  if (start > 0) excerpt = ['…', ...excerpt.slice(1)];
  if (start + EXCERPT_LENGTH < chars.length) excerpt = [...excerpt.slice(0, -1), '…'];
  return excerpt.join('');
}

function toSource(row: SourceRow): ProvenanceSource {
  return {
    turnId: row.turn_id,
    role: row.role,
    quote: row.quote,
    excerpt: row.text === null ? row.quote : excerptAround(row.text, row.quote_start, row.quote),
    sequence: row.sequence,
    threadId: row.thread_id,
    turnCreatedAt: row.turn_created_at,
  };
}

function detailOf(row: ItemRecord, sources: ProvenanceSource[], revisions: MemoryRevision[]): MemoryDetail {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    ...itemText(row),
    nonFactual: row.nonFactual,
    threadId: row.threadId,
    revision: row.revision,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    supersedes: row.supersedesId,
    supersededBy: row.supersededById,
    revisions,
    sources,
  };
}

/**
 * `memory_read` (M-7.6): a usable memory only (active; a discussion only within its own thread), with
 * at most 3 bounded provenance excerpts. Forgotten, superseded and other threads' items are not found.
 */
export function readMemory(conn: Connection, threadId: string, memoryId: string): MemoryDetail {
  return conn.read(() => {
    const id = resolveItemId(conn, memoryId);
    const row = findCurrentItem(conn, id);
    if (!row || row.status !== 'active' || (row.kind === 'discussion_context' && row.threadId !== threadId)) {
      throw new MemoryNotFoundError(memoryId, `memory ${memoryId} is not usable here (forgotten, superseded or from another thread)`);
    }
    const sources = conn.stmt<SourceRow>(SOURCES_SQL).all(id, MAX_READ_SOURCES).map(toSource);
    return detailOf(row, sources, []);
  });
}

/** `/memory show`: any status, every revision and every source. Works while degraded when the tables can be read. */
export function showMemory(conn: Connection, memoryId: string): MemoryDetail {
  try {
    return conn.read(() => {
      const id = resolveItemId(conn, memoryId);
      const rows = itemRevisions(conn, id);
      const current = rows.find((r) => r.isCurrent) ?? rows[rows.length - 1];
      if (!current) throw new MemoryNotFoundError(memoryId);
      const revisions = rows.map((r) => ({
        revision: r.revision,
        status: r.status,
        title: r.title,
        content: r.content,
        createdAt: r.createdAt,
      }));
      const sources = conn.stmt<SourceRow>(SOURCES_SQL).all(id, 1000).map(toSource);
      return detailOf(current, sources, revisions);
    });
  } catch (error) {
    if (error instanceof MemoryNotFoundError) throw error;
    throw new MemoryStorageError(`cannot read memory ${memoryId}: ${describeError(error)}`, { cause: error });
  }
}
