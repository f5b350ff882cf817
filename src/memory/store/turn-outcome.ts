import type { Connection } from '../db/connection.js';
import { diagnosticsPath, entryPath } from './diagnostics.js';
import { clip } from '../../shared/text.js';
import type { CandidateStatus, MemoryKind, RememberResult, RoutedItem } from '../types.js';

const ERROR = diagnosticsPath('error');

/** How far back from a turn the lead job of its extraction batch may be (failed jobs can sit between). */
const BATCH_WINDOW = 32;

/** What became of the words of one user turn, read from its job, its candidates and their items. */
export type TurnOutcome =
  /** `lastError`: the short error of the job waiting for its retry (never the RAW diagnostic). */
  | { state: 'queued'; stage: 'extraction' | 'consolidation'; lastError: string | null }
  | { state: 'remembered'; memory: RoutedItem }
  | { state: 'refused'; reason: string };

/**
 * What the pipeline made of a user turn's words, preferring candidates of `kind`: an item that holds them
 * (created, revised, or a repeat recorded as its evidence), still queued, or refused with the reason the
 * extraction or the consolidation recorded. Index reads only (turn job, sources by turn, items by candidate).
 */
export function turnOutcome(conn: Connection, turnId: string, kind: MemoryKind): TurnOutcome {
  const job = conn
    .stmt<{ finished: number; batch_id: string | null; last_error: string | null; thread_id: string; sequence: number }>(
      `SELECT finished_at IS NOT NULL AS finished, batch_id, json_extract(diagnostics, '${ERROR}') AS last_error, thread_id,
              turn_sequence AS sequence
         FROM memory_jobs WHERE turn_id = ?`,
    )
    .get(turnId);
  if (!job || !job.finished) return { state: 'queued', stage: 'extraction', lastError: job?.last_error ?? null };
  const candidates = conn
    .stmt<{ id: string; kind: MemoryKind; status: CandidateStatus; item_id: string | null; consolidation_error: string | null }>(
      `SELECT DISTINCT c.id, c.kind, c.status,
              (SELECT mic.item_id FROM memory_item_candidates mic WHERE mic.candidate_id = c.id LIMIT 1) AS item_id,
              (SELECT json_extract(j.diagnostics, '${ERROR}') FROM memory_jobs j
                WHERE j.id = c.consolidation_job_id AND j.finished_at IS NULL) AS consolidation_error
         FROM candidate_sources cs JOIN memory_candidates c ON c.id = cs.candidate_id
        WHERE cs.turn_id = ? AND cs.role = 'user'`,
    )
    .all(turnId)
    .sort((a, b) => Number(b.kind === kind) - Number(a.kind === kind));
  const held = candidates.find((c) => c.item_id !== null);
  if (held) {
    const item = conn.stmt<RoutedItem>('SELECT id, kind, title FROM memory_items WHERE id = ? AND is_current = 1').get(held.item_id!);
    if (item) return { state: 'remembered', memory: item };
  }
  const pending = candidates.find((c) => c.status === 'pending');
  if (pending) return { state: 'queued', stage: 'consolidation', lastError: pending.consolidation_error };
  if (candidates.length > 0) {
    const first = candidates[0]!;
    return { state: 'refused', reason: first.status === 'suppressed' ? 'suppressed_evidence' : 'rejected_by_consolidation' };
  }
  return { state: 'refused', reason: extractionRefusal(conn, turnId, job) ?? 'no_candidate' };
}

/** The reason the extraction of the turn's batch recorded for a candidate quoting it, if any. */
function extractionRefusal(
  conn: Connection,
  turnId: string,
  job: { batch_id: string | null; thread_id: string; sequence: number },
): string | null {
  if (job.batch_id === null) return null;
  const rows = conn
    .stmt<{ reason: string }>(
      `SELECT json_extract(r.value, '${entryPath('reason')}') AS reason
         FROM turns t JOIN memory_jobs j ON j.turn_id = t.id, json_each(j.diagnostics, '${diagnosticsPath('rejections')}') r
        WHERE t.thread_id = ? AND t.sequence BETWEEN ? AND ? AND j.batch_id = ? AND j.diagnostics IS NOT NULL
          AND json_extract(r.value, '${entryPath('turnId')}') = ?
        LIMIT 1`,
    )
    .all(job.thread_id, job.sequence - BATCH_WINDOW, job.sequence, job.batch_id, turnId);
  return rows[0]?.reason ?? null;
}

/** What became of one stored candidate: the item that holds it, still queued for consolidation, or refused. */
export function candidateOutcome(conn: Connection, candidateId: string): TurnOutcome {
  const row = conn
    .stmt<{ status: CandidateStatus; item_id: string | null; error: string | null }>(
      `SELECT c.status, (SELECT mic.item_id FROM memory_item_candidates mic WHERE mic.candidate_id = c.id LIMIT 1) AS item_id,
              (SELECT json_extract(j.diagnostics, '${ERROR}') FROM memory_jobs j
                WHERE j.id = c.consolidation_job_id AND j.finished_at IS NULL) AS error
         FROM memory_candidates c WHERE c.id = ?`,
    )
    .get(candidateId);
  if (!row) return { state: 'refused', reason: 'cleared' };
  if (row.item_id !== null) {
    const item = conn.stmt<RoutedItem>('SELECT id, kind, title FROM memory_items WHERE id = ? AND is_current = 1').get(row.item_id);
    if (item) return { state: 'remembered', memory: item };
  }
  if (row.status === 'pending') return { state: 'queued', stage: 'consolidation', lastError: row.error };
  return { state: 'refused', reason: row.status === 'suppressed' ? 'suppressed_evidence' : 'rejected_by_consolidation' };
}

/** A pipeline outcome as `remember` and `keep` report it. */
export function outcomeFields(outcome: TurnOutcome, hasModel: boolean): Pick<RememberResult, 'outcome' | 'memory' | 'reason'> {
  if (outcome.state === 'remembered') return { outcome: 'remembered', memory: outcome.memory, reason: null };
  if (outcome.state === 'refused') return { outcome: 'refused', memory: null, reason: outcome.reason };
  const reason = !hasModel
    ? 'no model is configured'
    : outcome.lastError !== null
      ? clip(outcome.lastError.split('\n')[0]!, 200)
      : `the ${outcome.stage} waits for earlier jobs`;
  return { outcome: 'queued', memory: null, reason };
}
