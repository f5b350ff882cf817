import { MemorySchemaError } from '../../shared/errors.js';
import type { Connection } from '../db/connection.js';
import { metaExists } from './meta.js';
import type { ThreadRecord, ThreadStatus, TurnHandle } from '../types.js';

/** A `threads` row as SQLite returns it; it leaves this module as a `ThreadRecord`. */
interface ThreadRow {
  id: string;
  status: ThreadStatus;
  compaction: string;
  compaction_sequence: number;
  created_at: number;
  updated_at: number;
  archived_at: number | null;
}

const THREAD_COLUMNS = 'id, status, compaction, compaction_sequence, created_at, updated_at, archived_at';

function toThreadRecord(row: ThreadRow): ThreadRecord {
  return {
    id: row.id,
    status: row.status,
    compaction: row.compaction,
    compactionSequence: row.compaction_sequence,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archivedAt: row.archived_at,
  };
}

export function findActiveThread(conn: Connection): ThreadRecord | null {
  const row = conn.stmt<ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM threads WHERE status = 'active'`).get();
  return row ? toThreadRecord(row) : null;
}

export function findThread(conn: Connection, id: string): ThreadRecord | null {
  const row = conn.stmt<ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ?`).get(id);
  return row ? toThreadRecord(row) : null;
}

/** The operational guard (M-2.4): meta and the active thread must exist at run time. */
export function requireActiveThread(conn: Connection): ThreadRecord {
  if (!metaExists(conn)) throw new MemorySchemaError('memory_meta row id=1 missing');
  const thread = findActiveThread(conn);
  if (!thread) throw new MemorySchemaError('no active thread');
  return thread;
}

/** `/new`: archive the active thread and create the next one, in one transaction (M-3.4). */
export function archiveAndCreateThread(conn: Connection, newId: string, now: number): { archived: string; created: string } {
  return conn.immediate(() => {
    const active = requireActiveThread(conn);
    conn.stmt("UPDATE threads SET status = 'archived', archived_at = ?, updated_at = ? WHERE id = ?").run(now, now, active.id);
    conn.stmt("INSERT INTO threads (id, status, created_at, updated_at) VALUES (?, 'active', ?, ?)").run(newId, now, now);
    return { archived: active.id, created: newId };
  });
}

/** M-5.2: the compaction only moves forward; an older batch never overwrites a newer compaction. */
export function advanceCompaction(conn: Connection, threadId: string, compaction: string, sequence: number, now: number): boolean {
  const result = conn
    .stmt('UPDATE threads SET compaction = ?, compaction_sequence = ?, updated_at = ? WHERE id = ? AND compaction_sequence < ?')
    .run(compaction, sequence, now, threadId, sequence);
  return result.changes === 1;
}

/**
 * A read-only binding to the thread active at this moment, for callers that serve requests without a turn of
 * their own (the MCP server): search, read and the routing context use its thread; it owns no turn.
 */
export function bindActiveThread(conn: Connection): TurnHandle {
  return { turnId: '', threadId: requireActiveThread(conn).id, sequence: Number.MAX_SAFE_INTEGER };
}
