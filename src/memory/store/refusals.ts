import { clip } from '../../shared/text.js';
import type { Connection } from '../db/connection.js';
import type { MemoryKind, RefusedCandidate, SuggestedCandidate } from '../types.js';

/**
 * Refused and suggested candidates, read from the extraction diagnostics where the validator recorded them
 * (M-5.4, M-5.7). Neither has a row of its own: its id is its job's id and position — `job#3` for the third
 * refusal, `job#s2` for the second suggestion. An entry whose `state` is set (kept or dismissed) is no
 * longer listed; a suggestion of an archived thread is no longer listed either.
 */

/** What a refusal and a suggestion share: where it was recorded, what it says, and why it was held. */
interface HeldRow {
  job_id: string;
  ordinal: number;
  kind: MemoryKind;
  title: string;
  reason: string;
  quote: string | null;
  turn_id: string | null;
  lead_turn_id: string;
  at: number;
}

interface RefusalRow extends HeldRow {
  keepable: number | null;
}

/** Recent refused candidates, newest first. */
export function recentRefusals(conn: Connection, limit: number): RefusedCandidate[] {
  const rows = conn
    .stmt<RefusalRow>(
      `SELECT j.id AS job_id, CAST(r.key AS INTEGER) AS ordinal,
              json_extract(r.value, '$.kind') AS kind, json_extract(r.value, '$.title') AS title,
              json_extract(r.value, '$.reason') AS reason, json_extract(r.value, '$.quote') AS quote,
              json_extract(r.value, '$.turnId') AS turn_id, json_extract(r.value, '$.keepable') AS keepable,
              j.turn_id AS lead_turn_id, coalesce(j.finished_at, j.updated_at) AS at
         FROM memory_jobs j, json_each(j.diagnostics, '$.rejections') r
        WHERE j.kind = 'extraction' AND j.diagnostics IS NOT NULL AND json_extract(r.value, '$.state') IS NULL
        ORDER BY at DESC, j.rowid DESC, ordinal DESC
        LIMIT ?`,
    )
    .all(limit);
  return rows.map((row) => ({
    candidateId: `${row.job_id}#${row.ordinal + 1}`,
    kind: row.kind,
    title: row.title,
    quote: row.quote ?? '',
    reason: row.reason,
    turnId: row.turn_id ?? row.lead_turn_id,
    at: row.at,
    keepable: row.keepable === 1,
  }));
}

interface SuggestionRow extends HeldRow {
  content: string;
}

/** Suggestions held for the user (M-5.7), newest first: only those of the active thread, not yet kept or dismissed. */
export function recentSuggestions(conn: Connection, limit: number): SuggestedCandidate[] {
  const rows = conn
    .stmt<SuggestionRow>(
      `SELECT j.id AS job_id, CAST(s.key AS INTEGER) AS ordinal,
              json_extract(s.value, '$.kind') AS kind, json_extract(s.value, '$.title') AS title,
              json_extract(s.value, '$.content') AS content, json_extract(s.value, '$.reason') AS reason,
              json_extract(s.value, '$.quote') AS quote, json_extract(s.value, '$.turnId') AS turn_id,
              j.turn_id AS lead_turn_id, coalesce(j.finished_at, j.updated_at) AS at
         FROM memory_jobs j JOIN threads t ON t.id = j.thread_id AND t.status = 'active',
              json_each(j.diagnostics, '$.suggestions') s
        WHERE j.kind = 'extraction' AND j.diagnostics IS NOT NULL AND json_extract(s.value, '$.state') IS NULL
        ORDER BY at DESC, j.rowid DESC, ordinal DESC
        LIMIT ?`,
    )
    .all(limit);
  return rows.map((row) => ({
    candidateId: `${row.job_id}#s${row.ordinal + 1}`,
    kind: row.kind,
    title: row.title,
    content: row.content,
    quote: clip(row.quote ?? '', 200),
    reason: row.reason,
    turnId: row.turn_id ?? row.lead_turn_id,
    at: row.at,
  }));
}
