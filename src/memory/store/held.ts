import { MemoryNotFoundError, MemorySchemaError } from '../../shared/errors.js';
import { shortCandidateId } from '../../shared/ids.js';
import type { Connection } from '../db/connection.js';
import type { MemoryKind, SourceRole, ValidCandidate, VerifiedSource } from '../types.js';
import { assignConsolidationJob, insertCandidate } from './candidates.js';
import { insertConsolidationJob } from './jobs.js';
import { currentGeneration } from './meta.js';

/**
 * Candidates held for the user's decision (M-5.7) live in the extraction diagnostics, beside refusals: a
 * suggestion is `job#sN` (`$.suggestions[N-1]`), a refusal `job#N` (`$.rejections[N-1]`). Neither has a row
 * of its own (the v2 catalog stays exact); an entry the user decided on carries `state` ('kept', with the
 * turn and candidate that recorded the keep, or 'dismissed').
 */

/** The body of a held candidate: what `keep` verifies again and consolidates. */
export interface HeldBody {
  kind: MemoryKind;
  title: string;
  content: string;
  aliases: string[];
  sources: VerifiedSource[];
}

export interface HeldEntry {
  candidateId: string;
  jobId: string;
  /** JSON path of the entry in the job's diagnostics, built from the parsed id only. */
  path: string;
  from: 'suggestion' | 'refusal';
  threadId: string;
  threadActive: boolean;
  reason: string;
  state: 'kept' | 'dismissed' | null;
  keptTurnId: string | null;
  keptCandidateId: string | null;
  /** A suggestion, or a refusal of the reading that the gate kept the verified candidate of. */
  keepable: boolean;
  body: HeldBody | null;
}

const HELD_ID = /^([^#\s]{1,80})#(s?)([1-9]\d{0,4})$/u;
const ALIAS = /^[sr][0-9a-z]{5}$/u;

interface StoredEntry {
  state?: string;
  keptTurnId?: string;
  keptCandidateId?: string;
  kind?: MemoryKind;
  title?: string;
  content?: string;
  aliases?: string[];
  reason?: string;
  sources?: { turnId: string; role: SourceRole; quote: string; start: number }[];
  keepable?: boolean;
  candidate?: HeldBody;
}

/** The held entry with this full id, whatever its state, or null. */
export function findHeldEntry(conn: Connection, candidateId: string): HeldEntry | null {
  const m = HELD_ID.exec(candidateId);
  if (!m) return null;
  const [, jobId, s, n] = m;
  const from = s === 's' ? 'suggestion' : 'refusal';
  const path = `$.${from === 'suggestion' ? 'suggestions' : 'rejections'}[${Number(n) - 1}]`;
  const row = conn
    .stmt<{ value: string | null; thread_id: string; active: number }>(
      `SELECT json_extract(j.diagnostics, ?) AS value, j.thread_id, t.status = 'active' AS active
         FROM memory_jobs j JOIN threads t ON t.id = j.thread_id
        WHERE j.id = ? AND j.kind = 'extraction' AND j.diagnostics IS NOT NULL`,
    )
    .get(path, jobId!);
  if (!row?.value) return null;
  const entry = JSON.parse(row.value) as StoredEntry;
  const body: HeldBody | null =
    from === 'suggestion'
      ? entry.kind && entry.sources
        ? {
            kind: entry.kind,
            title: entry.title ?? '',
            content: entry.content ?? entry.title ?? '',
            aliases: entry.aliases ?? [],
            sources: entry.sources,
          }
        : null
      : entry.keepable === true && entry.candidate
        ? entry.candidate
        : null;
  return {
    candidateId,
    jobId: jobId!,
    path,
    from,
    threadId: row.thread_id,
    threadActive: row.active === 1,
    reason: entry.reason ?? 'unknown',
    state: entry.state === 'kept' || entry.state === 'dismissed' ? entry.state : null,
    keptTurnId: entry.keptTurnId ?? null,
    keptCandidateId: entry.keptCandidateId ?? null,
    keepable: body !== null,
    body,
  };
}

/**
 * The full id a person means: a full id as given, or the short name (`s…`/`r…`, see `shortCandidateId`)
 * of a held candidate. The short name is looked up among every stored suggestion or refusal (a read of the
 * finished extraction jobs' diagnostics: the typed command, not a hot path).
 */
export function resolveHeldId(conn: Connection, input: string): string {
  const given = input.trim();
  if (HELD_ID.test(given)) return given;
  const wanted = given.toLowerCase();
  if (!ALIAS.test(wanted)) throw new MemoryNotFoundError(input, `No suggestion or refusal has id '${input}'`);
  const suggestion = wanted.startsWith('s');
  const ids = conn
    .stmt<{ id: string }>(
      `SELECT j.id || '#' || ? || (CAST(e.key AS INTEGER) + 1) AS id
         FROM memory_jobs j, json_each(j.diagnostics, ?) e
        WHERE j.kind = 'extraction' AND j.diagnostics IS NOT NULL`,
    )
    .all(suggestion ? 's' : '', suggestion ? '$.suggestions' : '$.rejections')
    .map((r) => r.id)
    .filter((id) => shortCandidateId(id) === wanted);
  if (ids.length === 1) return ids[0]!;
  if (ids.length === 0) throw new MemoryNotFoundError(input, `No suggestion or refusal has id '${input}'`);
  throw new MemoryNotFoundError(input, `'${input}' names several candidates (${ids.join(', ')}); give the full id`);
}

/** Suggestions of a thread still waiting for the user's decision (status: reads the extraction diagnostics). */
export function countHeldSuggestions(conn: Connection, threadId: string): number {
  return (
    conn
      .stmt<{ n: number }>(
        `SELECT count(*) AS n FROM memory_jobs j, json_each(j.diagnostics, '$.suggestions') s
          WHERE j.kind = 'extraction' AND j.thread_id = ? AND j.diagnostics IS NOT NULL AND json_extract(s.value, '$.state') IS NULL`,
      )
      .get(threadId)?.n ?? 0
  );
}

/** Marks a held entry dismissed; false when it was already decided on (kept or dismissed). */
export function dismissHeldEntry(conn: Connection, entry: HeldEntry): boolean {
  return conn.immediate(
    () =>
      conn
        .stmt(
          `UPDATE memory_jobs SET diagnostics = json_set(diagnostics, ?, 'dismissed')
            WHERE id = ? AND json_extract(diagnostics, ?) IS NOT NULL AND json_extract(diagnostics, ?) IS NULL`,
        )
        .run(`${entry.path}.state`, entry.jobId, entry.path, `${entry.path}.state`).changes === 1,
  );
}

export interface KeepRecord {
  turnId: string;
  keepJobId: string;
  candidateId: string;
  consolidationJobId: string;
}

/**
 * M-5.7: records a keep as the user's own ordinary turn, in one transaction: the turn (RAW text as typed,
 * the program's answer), its one extraction job — finished, carrying the kept candidate with its original,
 * re-verified quotes — the candidate, the one consolidation job of that batch, and the held entry marked
 * kept. Under the write lock the entry is read again: one already kept returns what kept it (`already`).
 */
export function recordKeep(
  conn: Connection,
  input: {
    entry: HeldEntry;
    candidate: ValidCandidate;
    typed: string;
    answer: string;
    ids: { turn: string; keepJob: string; candidate: string; consolidationJob: string };
    now: number;
  },
): { already: false; record: KeepRecord } | { already: true; keptTurnId: string | null; keptCandidateId: string | null } {
  const { entry, now, ids } = input;
  return conn.immediate(() => {
    const current = findHeldEntry(conn, entry.candidateId);
    if (!current || current.state === 'dismissed') throw new MemoryNotFoundError(entry.candidateId, `${entry.candidateId} was dismissed`);
    if (current.state === 'kept') return { already: true, keptTurnId: current.keptTurnId, keptCandidateId: current.keptCandidateId };
    const generation = currentGeneration(conn);
    if (generation === undefined) throw new MemorySchemaError('memory_meta row id=1 missing');
    const turn = conn
      .stmt<{ sequence: number }>(
        `INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
         SELECT ?, t.id, coalesce((SELECT max(sequence) FROM turns WHERE thread_id = t.id), 0) + 1, 'general_chat', ?, ?,
                'completed', ?, ?, ?
           FROM threads t WHERE t.id = ? AND t.status = 'active'
         RETURNING sequence`,
      )
      .get(ids.turn, input.typed, input.answer, now, now, now, entry.threadId);
    if (!turn) throw new MemoryNotFoundError(entry.candidateId, `${entry.candidateId} belongs to a thread that was archived`);
    const diagnostics = {
      purpose: 'memory_keep',
      kept: entry.candidateId,
      from: entry.from,
      candidates: 1,
      accepted: 1,
      filtered: {},
      rejections: [],
      compactionAdvanced: false,
      repairs: [],
    };
    conn
      .stmt(
        `INSERT INTO memory_jobs (id, kind, status, thread_id, turn_id, turn_sequence, generation, available_at, diagnostics,
                                  created_at, updated_at, finished_at)
         VALUES (?, 'extraction', 'succeeded', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(ids.keepJob, entry.threadId, ids.turn, turn.sequence, generation, now, JSON.stringify(diagnostics), now, now, now);
    insertCandidate(conn, { id: ids.candidate, extractionJobId: ids.keepJob, generation, candidate: input.candidate, now });
    insertConsolidationJob(conn, { jobId: ids.consolidationJob, parentJobId: ids.keepJob, threadId: entry.threadId, generation, now });
    assignConsolidationJob(conn, [ids.candidate], ids.consolidationJob);
    conn
      .stmt('UPDATE memory_jobs SET diagnostics = json_set(diagnostics, ?, ?, ?, ?, ?, ?) WHERE id = ?')
      .run(
        `${entry.path}.state`,
        'kept',
        `${entry.path}.keptTurnId`,
        ids.turn,
        `${entry.path}.keptCandidateId`,
        ids.candidate,
        entry.jobId,
      );
    return {
      already: false,
      record: { turnId: ids.turn, keepJobId: ids.keepJob, candidateId: ids.candidate, consolidationJobId: ids.consolidationJob },
    };
  });
}
