import { clip } from '../../shared/text.js';
import type { Connection } from '../db/connection.js';
import type { MemoryChange, MemoryKind } from '../types.js';
import { diagnosticsPath, entryPath } from './diagnostics.js';
import { requireActiveThread } from './threads.js';

/** Changes read at most, per kind: a notice shows a few and counts the rest. */
export const CHANGES_LIMIT = 200;
/** Characters of the quote a change carries. */
const QUOTE_CHARS = 200;

interface ChangedRow {
  id: string;
  revision: number;
  kind: MemoryKind;
  title: string;
  supersedes_id: string | null;
  at: number;
  quote: string | null;
  replaced_title: string | null;
}

/**
 * M-11.2: the items the background Memory created, revised or made by a supersede since `since` (epoch
 * ms, inclusive), oldest first. An active revision's `updated_at` is its creation time (a revision is never
 * edited, only retired), so three range reads of `memory_items_active` find them: repo preferences, repo
 * decisions and the given thread's discussions. An item retired or forgotten since is not a change to tell.
 */
export function itemChangesSince(conn: Connection, since: number, threadId: string | null): MemoryChange[] {
  const rows = conn
    .stmt<ChangedRow>(
      `SELECT c.id, c.revision, c.kind, c.title, c.supersedes_id, c.at,
              (SELECT cs.quote FROM memory_item_candidates mic JOIN candidate_sources cs ON cs.candidate_id = mic.candidate_id
                WHERE mic.item_id = c.id AND mic.revision = c.revision
                ORDER BY cs.role <> 'user', cs.ordinal LIMIT 1) AS quote,
              (SELECT o.title FROM memory_items o WHERE o.id = c.supersedes_id AND o.is_current = 1) AS replaced_title
         FROM (SELECT * FROM (SELECT id, revision, kind, title, supersedes_id, updated_at AS at FROM memory_items
                               WHERE status = 'active' AND kind = 'user_preference' AND thread_id IS NULL AND updated_at >= :since
                               ORDER BY updated_at LIMIT ${CHANGES_LIMIT})
               UNION ALL
               SELECT * FROM (SELECT id, revision, kind, title, supersedes_id, updated_at AS at FROM memory_items
                               WHERE status = 'active' AND kind = 'project_decision' AND thread_id IS NULL AND updated_at >= :since
                               ORDER BY updated_at LIMIT ${CHANGES_LIMIT})
               UNION ALL
               SELECT * FROM (SELECT id, revision, kind, title, supersedes_id, updated_at AS at FROM memory_items
                               WHERE status = 'active' AND kind = 'discussion_context' AND thread_id = :thread
                                 AND updated_at >= :since
                               ORDER BY updated_at LIMIT ${CHANGES_LIMIT})) c`,
    )
    .all({ since, thread: threadId });
  return rows.map((row): MemoryChange => {
    const action = row.revision > 1 ? 'revised' : row.supersedes_id !== null ? 'superseded' : 'created';
    return {
      at: row.at,
      action,
      id: row.id,
      kind: row.kind,
      title: row.title,
      quote: clip(row.quote ?? '', QUOTE_CHARS),
      ...(action === 'superseded' ? { replaced: { id: row.supersedes_id!, title: row.replaced_title ?? '' } } : {}),
    };
  });
}

/** How many of the thread's newest turns a suggestion notice looks at (their extraction jobs hold them). */
const SUGGESTION_TURNS = 64;

/**
 * M-11.2 / M-5.7: the candidates held as suggestions since `since`, from the diagnostics of the extraction
 * jobs of the thread's newest turns (an index read by thread and sequence, then each turn's one job; a
 * suggestion lives only while its thread is active). One already kept or dismissed is not told.
 */
export function suggestionChangesSince(conn: Connection, since: number, threadId: string): MemoryChange[] {
  const rows = conn
    .stmt<{ job_id: string; n: number; kind: MemoryKind; title: string; quote: string | null; at: number }>(
      `SELECT j.id AS job_id, CAST(s.key AS INTEGER) + 1 AS n, json_extract(s.value, '${entryPath('kind')}') AS kind,
              json_extract(s.value, '${entryPath('title')}') AS title, json_extract(s.value, '${entryPath('quote')}') AS quote,
              j.finished_at AS at
         FROM (SELECT id FROM turns WHERE thread_id = ? ORDER BY sequence DESC LIMIT ${SUGGESTION_TURNS}) t
         JOIN memory_jobs j ON j.turn_id = t.id, json_each(j.diagnostics, '${diagnosticsPath('suggestions')}') s
        WHERE j.finished_at >= ? AND j.diagnostics IS NOT NULL AND json_extract(s.value, '${entryPath('state')}') IS NULL`,
    )
    .all(threadId, since);
  return rows.map((row) => ({
    at: row.at,
    action: 'suggested',
    id: `${row.job_id}#s${row.n}`,
    kind: row.kind,
    title: row.title,
    quote: clip(row.quote ?? '', QUOTE_CHARS),
  }));
}

/** Oldest first; ties in a stable order (a revision before what replaced it in the same commit). */
export function byTime(a: MemoryChange, b: MemoryChange): number {
  return a.at - b.at || a.id.localeCompare(b.id);
}

/**
 * M-11.2: what the background Memory did since `since` (epoch ms, inclusive), oldest first: items created,
 * revised or made by a supersede (repo preferences and decisions, the active thread's discussions), and
 * candidates held as suggestions (their id is what `keep` and `dismiss` take).
 */
export function changesSince(conn: Connection, since: number): MemoryChange[] {
  return conn
    .read(() => {
      const thread = requireActiveThread(conn).id;
      return [...itemChangesSince(conn, since, thread), ...suggestionChangesSince(conn, since, thread)];
    })
    .sort(byTime);
}
