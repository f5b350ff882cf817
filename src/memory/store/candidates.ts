import type { Connection } from '../db/connection.js';
import type { CandidateRecord, MemoryKind, SourceRecord, ValidCandidate, VerifiedSource } from '../types.js';

export function insertCandidate(
  conn: Connection,
  input: { id: string; extractionJobId: string; generation: number; candidate: ValidCandidate; now: number },
): void {
  const c = input.candidate;
  conn
    .stmt(
      `INSERT INTO memory_candidates (id, extraction_job_id, thread_id, kind, title, content, aliases, non_factual, status,
                                      generation, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    )
    .run(
      input.id,
      input.extractionJobId,
      c.threadId,
      c.kind,
      c.title,
      c.content,
      JSON.stringify(c.aliases),
      c.nonFactual ? 1 : 0,
      input.generation,
      input.now,
      input.now,
    );
  const source = conn.stmt(
    'INSERT INTO candidate_sources (candidate_id, ordinal, turn_id, role, quote, quote_start) VALUES (?, ?, ?, ?, ?, ?)',
  );
  c.sources.forEach((s, ordinal) => source.run(input.id, ordinal, s.turnId, s.role, s.quote, s.start));
}

export function assignConsolidationJob(conn: Connection, candidateIds: string[], jobId: string): void {
  conn
    .stmt('UPDATE memory_candidates SET consolidation_job_id = ? WHERE id IN (SELECT value FROM json_each(?))')
    .run(jobId, JSON.stringify(candidateIds));
}

/**
 * M-6.3: true when a source overlaps the evidence of a suppressed (forgotten) candidate — the same turn,
 * role and an overlapping span — so a forgotten memory is never built again from its old evidence.
 */
export function touchesSuppressedEvidence(conn: Connection, sources: readonly VerifiedSource[]): boolean {
  const check = conn.stmt<{ n: number }>(
    `SELECT count(*) AS n FROM candidate_sources s JOIN memory_candidates c ON c.id = s.candidate_id
      WHERE c.status = 'suppressed' AND s.turn_id = ? AND s.role = ?
        AND s.quote_start < ? AND s.quote_start + length(s.quote) > ?`,
  );
  return sources.some((s) => (check.get(s.turnId, s.role, s.start + Array.from(s.quote).length, s.start)?.n ?? 0) > 0);
}

/** A `memory_candidates` row with its sources as one JSON list; it leaves this module as a `CandidateRecord`. */
interface CandidateRow {
  id: string;
  thread_id: string;
  kind: MemoryKind;
  title: string;
  content: string;
  aliases: string;
  non_factual: number;
  status: CandidateRecord['status'];
  sources: string;
}

/** The candidates a consolidation job handles, with their sources, in one statement. */
export function candidatesOfJob(conn: Connection, jobId: string): CandidateRecord[] {
  const rows = conn
    .stmt<CandidateRow>(
      `SELECT c.id, c.thread_id, c.kind, c.title, c.content, c.aliases, c.non_factual, c.status,
              (SELECT json_group_array(json_array(s.turn_id, s.role, s.quote))
                 FROM (SELECT turn_id, role, quote FROM candidate_sources WHERE candidate_id = c.id ORDER BY ordinal) s) AS sources
         FROM memory_candidates c
        WHERE c.consolidation_job_id = ? ORDER BY c.created_at, c.rowid`,
    )
    .all(jobId);
  return rows.map(toCandidateRecord);
}

function toCandidateRecord(row: CandidateRow): CandidateRecord {
  return {
    id: row.id,
    threadId: row.thread_id,
    kind: row.kind,
    title: row.title,
    content: row.content,
    aliases: JSON.parse(row.aliases) as string[],
    nonFactual: row.non_factual === 1,
    status: row.status,
    sources: (JSON.parse(row.sources) as [string, 'user' | 'assistant', string][]).map(([turnId, role, quote]): SourceRecord => ({
      turnId,
      role,
      quote,
    })),
  };
}

export function setCandidateStatus(conn: Connection, ids: string[], status: 'consolidated' | 'rejected', now: number): void {
  conn
    .stmt(
      `UPDATE memory_candidates SET status = ?, updated_at = ?
        WHERE id IN (SELECT value FROM json_each(?)) AND status = 'pending'`,
    )
    .run(status, now, JSON.stringify(ids));
}

/** Ids of a consolidation job's candidates still pending (a forget may have suppressed some since the claim). */
export function pendingCandidateIds(conn: Connection, consolidationJobId: string): string[] {
  return conn
    .stmt<{ id: string }>(`SELECT id FROM memory_candidates WHERE consolidation_job_id = ? AND status = 'pending'`)
    .all(consolidationJobId)
    .map((r) => r.id);
}
