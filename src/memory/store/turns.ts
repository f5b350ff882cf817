import { MemoryLeaseError, MemorySchemaError } from '../../shared/errors.js';
import type { Connection } from '../db/connection.js';
import type { OrdinaryIntent, TurnHandle, TurnRecord, TurnState } from '../types.js';
import { insertExtractionJob } from './jobs.js';
import { type LeaseRule, mayTakeOver } from './leases.js';
import { metaExists } from './meta.js';

/** A `turns` row as SQLite returns it; it leaves this module as a `TurnRecord`. */
interface TurnRow {
  id: string;
  thread_id: string;
  sequence: number;
  intent: OrdinaryIntent;
  user_text: string;
  assistant_text: string | null;
  state: TurnState;
  scope_paths: string;
  lease_owner: string | null;
  lease_expires_at: number | null;
  failure: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

const TURN_COLUMNS =
  'id, thread_id, sequence, intent, user_text, assistant_text, state, scope_paths, lease_owner, lease_expires_at, failure, ' +
  'created_at, updated_at, finished_at';

function toTurnRecord(row: TurnRow): TurnRecord {
  return {
    id: row.id,
    threadId: row.thread_id,
    sequence: row.sequence,
    intent: row.intent,
    userText: row.user_text,
    assistantText: row.assistant_text,
    state: row.state,
    scopePaths: JSON.parse(row.scope_paths) as string[],
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    failure: row.failure,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

export function findTurn(conn: Connection, id: string): TurnRecord | null {
  const row = conn.stmt<TurnRow>(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`).get(id);
  return row ? toTurnRecord(row) : null;
}

/** Sequences stay exact JavaScript numbers (issue "Safe hands", item 6): no turn is numbered beyond this. */
export const MAX_SEQUENCE = Number.MAX_SAFE_INTEGER;

export interface AdmitInput {
  turnId: string;
  intent: OrdinaryIntent;
  userText: string;
  scopePaths: string[];
  owner: string;
  leaseExpiresAt: number;
  now: number;
}

/**
 * M-3.2: store the RAW user turn with its owner lease, bound to the active thread of this moment, before
 * any model call. One statement: the sequence is the thread's next one, assigned under the write lock.
 */
export function admitTurn(conn: Connection, input: AdmitInput): TurnHandle {
  return conn.immediate(() => {
    const row = conn
      .stmt<{ thread_id: string; sequence: number }>(
        `INSERT INTO turns (id, thread_id, sequence, intent, user_text, state, scope_paths, lease_owner,
                            lease_expires_at, created_at, updated_at)
         SELECT ?, t.id, coalesce((SELECT max(sequence) FROM turns WHERE thread_id = t.id), 0) + 1, ?, ?, 'open', ?, ?, ?, ?, ?
           FROM threads t JOIN memory_meta m ON m.id = 1
          WHERE t.status = 'active' AND coalesce((SELECT max(sequence) FROM turns WHERE thread_id = t.id), 0) < ${MAX_SEQUENCE}
         RETURNING thread_id, sequence`,
      )
      .get(
        input.turnId,
        input.intent,
        input.userText,
        JSON.stringify(input.scopePaths),
        input.owner,
        input.leaseExpiresAt,
        input.now,
        input.now,
      );
    if (!row) {
      // Explain which half of the operational guard failed, or that the sequence has no safe next value.
      if (!metaExists(conn)) throw new MemorySchemaError('memory_meta row id=1 missing');
      const active = conn.stmt<{ id: string }>("SELECT id FROM threads WHERE status = 'active'").get();
      if (!active) throw new MemorySchemaError('no active thread');
      throw new MemorySchemaError(
        `the active thread's turn sequence reached ${MAX_SEQUENCE}, the largest safe integer; the database was changed outside autopatch-j`,
      );
    }
    return { turnId: input.turnId, threadId: row.thread_id, sequence: row.sequence };
  });
}

export interface FinishInput {
  handle: TurnHandle;
  owner: string;
  state: 'completed' | 'failed';
  assistantText: string | null;
  failure: string | null;
  jobId: string;
  now: number;
}

/**
 * Completes or fails an open turn, fenced by its lease owner, and queues its one extraction job in the
 * same transaction (M-3.2: every ordinary turn eventually gets a durable job).
 */
export function finishTurn(conn: Connection, input: FinishInput): TurnRecord {
  return conn.immediate(() => {
    const row = conn
      .stmt<TurnRow>(
        `UPDATE turns SET state = ?, assistant_text = ?, failure = ?, lease_owner = NULL, lease_expires_at = NULL,
                          finished_at = ?, updated_at = ?
          WHERE id = ? AND state = 'open' AND lease_owner = ?
         RETURNING ${TURN_COLUMNS}`,
      )
      .get(input.state, input.assistantText, input.failure, input.now, input.now, input.handle.turnId, input.owner);
    if (!row) throw leaseLost(conn, input.handle.turnId);
    insertExtractionJob(conn, { jobId: input.jobId, turnId: row.id, threadId: row.thread_id, sequence: row.sequence, now: input.now });
    return toTurnRecord(row);
  });
}

function leaseLost(conn: Connection, turnId: string): MemoryLeaseError {
  const turn = findTurn(conn, turnId);
  if (!turn) return new MemoryLeaseError(`turn ${turnId} no longer exists (Memory was cleared)`);
  if (turn.state !== 'open') return new MemoryLeaseError(`turn ${turnId} is already ${turn.state}`);
  return new MemoryLeaseError(`turn ${turnId} is leased by another owner`);
}

/** Extends the leases of the open turns this owner holds. */
export function heartbeatTurns(conn: Connection, owner: string, turnIds: string[], leaseExpiresAt: number, now: number): number {
  if (turnIds.length === 0) return 0;
  return conn.immediate(
    () =>
      conn
        .stmt(
          `UPDATE turns SET lease_expires_at = ?, updated_at = ?
            WHERE state = 'open' AND lease_owner = ? AND id IN (SELECT value FROM json_each(?))`,
        )
        .run(leaseExpiresAt, now, owner, JSON.stringify(turnIds)).changes,
    { durable: false },
  );
}

/**
 * M-10.1 / M-9.1: open turns whose lease is over become `interrupted` exactly once, each with its one
 * extraction job. A turn whose owner is a live process of this machine is never taken, whatever the clocks say
 * (issue "Safe hands", item 5); nor one with a live lease. Returns the ids recovered.
 */
export function recoverExpiredTurns(conn: Connection, rule: LeaseRule, newJobId: () => string): string[] {
  return conn.immediate(() => {
    // No ORDER BY in SQL: it would steer the planner off the small partial index of open turns.
    const expired = conn
      .stmt<{ id: string; thread_id: string; sequence: number; lease_owner: string | null; lease_expires_at: number | null }>(
        "SELECT id, thread_id, sequence, lease_owner, lease_expires_at FROM turns WHERE state = 'open'",
      )
      .all()
      .filter((t) => mayTakeOver(t.lease_owner, t.lease_expires_at, rule))
      .sort((a, b) => a.thread_id.localeCompare(b.thread_id) || a.sequence - b.sequence);
    const now = rule.now;
    for (const turn of expired) {
      conn
        .stmt(
          `UPDATE turns SET state = 'interrupted', lease_owner = NULL, lease_expires_at = NULL, finished_at = ?, updated_at = ?
            WHERE id = ? AND state = 'open'`,
        )
        .run(now, now, turn.id);
      insertExtractionJob(conn, { jobId: newJobId(), turnId: turn.id, threadId: turn.thread_id, sequence: turn.sequence, now });
    }
    return expired.map((t) => t.id);
  });
}

/** Turn counts by state, for status. */
export function countTurns(conn: Connection): Record<TurnState, number> {
  const out: Record<TurnState, number> = { open: 0, completed: 0, failed: 0, interrupted: 0 };
  for (const row of conn.stmt<{ state: TurnState; n: number }>('SELECT state, count(*) AS n FROM turns GROUP BY state').all()) {
    out[row.state] = row.n;
  }
  return out;
}

/** The RAW text of a set of turns, by sequence: what an extraction batch reads. */
export function turnsByIds(conn: Connection, ids: readonly string[]): TurnRecord[] {
  return conn
    .stmt<TurnRow>(`SELECT ${TURN_COLUMNS} FROM turns WHERE id IN (SELECT value FROM json_each(?)) ORDER BY sequence`)
    .all(JSON.stringify(ids))
    .map(toTurnRecord);
}

/** The completed turn of a thread just before a sequence (a confirmation's proposal lives there). */
export function previousCompletedTurn(conn: Connection, threadId: string, beforeSequence: number): TurnRecord | null {
  const row = conn
    .stmt<TurnRow>(
      `SELECT ${TURN_COLUMNS} FROM turns WHERE thread_id = ? AND sequence < ? AND state = 'completed' ORDER BY sequence DESC LIMIT 1`,
    )
    .get(threadId, beforeSequence);
  return row ? toTurnRecord(row) : null;
}
