import type { Connection } from '../db/connection.js';
import type { MemoryKind, RefusedCandidate } from '../types.js';

interface RefusalRow {
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

/**
 * Recent refused candidates, newest first, read from the extraction diagnostics where the validator
 * recorded them (M-5.4). A refused candidate has no row of its own: its id is its job's id and position.
 */
export function recentRefusals(conn: Connection, limit: number): RefusedCandidate[] {
  const rows = conn
    .stmt<RefusalRow>(
      `SELECT j.id AS job_id, CAST(r.key AS INTEGER) AS ordinal,
              json_extract(r.value, '$.kind') AS kind, json_extract(r.value, '$.title') AS title,
              json_extract(r.value, '$.reason') AS reason, json_extract(r.value, '$.quote') AS quote,
              json_extract(r.value, '$.turnId') AS turn_id, j.turn_id AS lead_turn_id,
              coalesce(j.finished_at, j.updated_at) AS at
         FROM memory_jobs j, json_each(j.diagnostics, '$.rejections') r
        WHERE j.kind = 'extraction' AND j.diagnostics IS NOT NULL
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
  }));
}
