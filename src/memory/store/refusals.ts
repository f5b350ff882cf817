import { clip } from '../../shared/text.js';
import type { Connection } from '../db/connection.js';
import type { MemoryKind, RefusedCandidate, SourceRole, SuggestedCandidate, VerifiedSource } from '../types.js';

/**
 * Refused and suggested candidates, read from the extraction diagnostics where the validator recorded them
 * (M-5.4, M-5.7). Neither has a row of its own: its id is its job's id and position — `job#3` for the third
 * refusal, `job#s2` for the second suggestion. An entry whose `state` is set (kept or dismissed) is no
 * longer listed; a suggestion of an archived thread is no longer listed either.
 */

interface RefusalRow {
  job_id: string;
  ordinal: number;
  kind: MemoryKind;
  title: string;
  reason: string;
  quote: string | null;
  turn_id: string | null;
  keepable: number | null;
  lead_turn_id: string;
  at: number;
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

interface SuggestionRow {
  job_id: string;
  ordinal: number;
  kind: MemoryKind;
  title: string;
  content: string;
  reason: string;
  quote: string | null;
  turn_id: string | null;
  lead_turn_id: string;
  at: number;
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

/** A held candidate as stored: what `keep` re-verifies against the RAW turns before consolidating it. */
export interface StoredHeldCandidate {
  candidateId: string;
  jobId: string;
  threadId: string;
  /** 'suggestion', or a keepable 'refusal'. */
  from: 'suggestion' | 'refusal';
  kind: MemoryKind;
  title: string;
  content: string;
  aliases: string[];
  reason: string;
  sources: VerifiedSource[];
}

/**
 * The suggestion or keepable refusal with this id, or null (unknown id, already kept or dismissed, or a
 * refusal that cannot be kept). The JSON path is built from the parsed id, never from the text given.
 */
export function findHeldCandidate(conn: Connection, candidateId: string): StoredHeldCandidate | null {
  const m = /^(.+)#(s?)([1-9]\d{0,4})$/u.exec(candidateId);
  if (!m) return null;
  const [, jobId, s, n] = m;
  const from = s === 's' ? 'suggestion' : 'refusal';
  const path = `$.${from === 'suggestion' ? 'suggestions' : 'rejections'}[${Number(n) - 1}]`;
  const row = conn
    .stmt<{ value: string | null; thread_id: string }>(
      `SELECT json_extract(diagnostics, ?) AS value, thread_id FROM memory_jobs WHERE id = ? AND kind = 'extraction'`,
    )
    .get(path, jobId!);
  if (!row?.value) return null;
  const entry = JSON.parse(row.value) as {
    state?: string;
    kind: MemoryKind;
    title: string;
    content?: string;
    aliases?: string[];
    reason: string;
    sources?: { turnId: string; role: SourceRole; quote: string; start: number }[];
    keepable?: boolean;
    candidate?: { title: string; content: string; aliases: string[]; sources: VerifiedSource[] };
  };
  if (entry.state !== undefined) return null;
  const body = from === 'suggestion' ? entry : entry.keepable === true ? entry.candidate : undefined;
  if (!body?.sources || body.content === undefined) return null;
  return {
    candidateId,
    jobId: jobId!,
    threadId: row.thread_id,
    from,
    kind: entry.kind,
    title: from === 'refusal' && entry.candidate ? entry.candidate.title : entry.title,
    content: body.content,
    aliases: body.aliases ?? [],
    reason: entry.reason,
    sources: body.sources,
  };
}
