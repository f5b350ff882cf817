import { clip } from '../../shared/text.js';
import type { Connection } from '../db/connection.js';
import { rankForRouting } from './search.js';
import type { ChatMessage, MemoryKind, RoutedItem, TurnHandle } from '../types.js';

/** M-8.1: at most 8 recent completed turns … */
export const HISTORY_TURNS = 8;
/** … and at most 12,000 characters in all. */
export const HISTORY_BUDGET = 12_000;
/** M-8.2: the whole routing context, compaction included. */
export const ROUTING_BUDGET = 4_000;

export const BOUNDARY_NOTE =
  'Memory is not source evidence: read source code, build configuration and current errors live. ' +
  'The current user instruction wins over any memory.';

/**
 * The initial history of an ordinary request (M-8.1): the bound thread's most recent completed turns
 * before this one, oldest first, within the budget. The newest turns are kept first; a turn that does not
 * fit whole is cut (only in the projection: RAW text in the database is never cut).
 */
export function history(conn: Connection, handle: TurnHandle): ChatMessage[] {
  const rows = conn
    .stmt<{ user_text: string; assistant_text: string; user_length: number; assistant_length: number }>(
      `SELECT substr(user_text, 1, ${HISTORY_BUDGET}) AS user_text, substr(assistant_text, 1, ${HISTORY_BUDGET}) AS assistant_text,
              length(user_text) AS user_length, length(assistant_text) AS assistant_length
         FROM turns
        WHERE thread_id = ? AND sequence < ? AND state = 'completed'
        ORDER BY sequence DESC
        LIMIT ${HISTORY_TURNS}`,
    )
    .all(handle.threadId, handle.sequence);
  const kept: ChatMessage[][] = [];
  let left = HISTORY_BUDGET;
  for (const row of rows) {
    if (left <= 0) break;
    let user = row.user_text;
    let assistant = row.assistant_text;
    if (user.length + assistant.length > left) {
      // Split what is left between the two sides, giving either side's unused share to the other.
      const userShare = Math.min(user.length, Math.max(Math.floor(left / 2), left - assistant.length));
      user = clip(user, userShare);
      assistant = clip(assistant, left - user.length);
    }
    left -= user.length + assistant.length;
    kept.push([
      { role: 'user', content: user },
      { role: 'assistant', content: assistant },
    ]);
  }
  return kept.reverse().flat();
}

interface IndexRow {
  id: string;
  kind: MemoryKind;
  title: string;
  synopsis: string;
}

// Items per kind read by recency: more than the character budget holds (lines are rarely under 45 characters).
const INDEX_ROWS_PER_KIND = 24;
// Active preferences and decisions of each kind counted at most, to say how many more exist: the count reads
// the active-items index, so it is capped ("more than 400 more") to stay cheap in a large Memory.
const COUNT_CAP = 200;
// The request text and the end of the summary that routing ranks by (M-8.3).
const REQUEST_CHARS = 2_000;
const SUMMARY_TAIL_CHARS = 400;
/** Characters of the routing context for preferences and decisions (more when there is no summary). */
const INDEX_BUDGET = 2_200;
const INDEX_BUDGET_WITHOUT_SUMMARY = 2_900;
// No index line is shorter than this: once less room is left, the rest of the candidates are not looked at.
const MIN_LINE = 24;
/** The thread summary shown, at most. */
const SUMMARY_BUDGET = 1_400;

const LABEL: Record<MemoryKind, string> = {
  user_preference: 'User preferences (explicitly stated by the user)',
  project_decision: 'Project decisions (confirmed by the user)',
  discussion_context: 'Current discussion (context, not facts)',
};

// Control and format characters (line breaks, escapes, bidi overrides) and runs of spaces become one space.
const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\s]+/gu;
// Whether there is anything for CONTROL to do (most titles and synopses have nothing): a test allocates nothing.
const NEEDS_FOLDING = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\s\s|^\s|\s$|[^\S ]/u;

/**
 * M-8.3: a stored string as one line of data: control and format characters and line breaks become spaces,
 * and the text is a quoted JSON string, so no heading, list, fence or tag written into a memory or a summary
 * can take the shape of the routing text around it.
 */
export function dataLine(text: string, max: number): string {
  return JSON.stringify(clip(NEEDS_FOLDING.test(text) ? text.replace(CONTROL, ' ').trim() : text, max));
}

interface RoutingView {
  text: string;
  shown: RoutedItem[];
}

/**
 * The Memory routing context of an ordinary request (M-8.2), at most 4,000 characters in all: the boundary
 * note, the active preferences and decisions, the bound thread's compaction and its discussion index.
 * Returns '' for a healthy empty Memory (M-2.5).
 */
export function routingContext(conn: Connection, handle: TurnHandle): string {
  return routingView(conn, handle).text;
}

/** The items `routingContext` shows for this request, in the order it shows them. */
export function routingItems(conn: Connection, handle: TurnHandle): RoutedItem[] {
  return routingView(conn, handle).shown;
}

/**
 * M-8.3: when the active preferences and decisions do not all fit, they are chosen by relevance to the
 * request (the search scorer over its text and the end of the thread summary), then by recency, preferences
 * first; the text says how many more exist and that memory_search finds them.
 */
function routingView(conn: Connection, handle: TurnHandle): RoutingView {
  return conn.read(() => {
    const context = conn
      .stmt<{ compaction: string; request: string | null; preferences: number; decisions: number }>(
        `SELECT t.compaction,
                (SELECT substr(user_text, 1, ${REQUEST_CHARS}) FROM turns WHERE id = :turn) AS request,
                (SELECT count(*) FROM (SELECT 1 FROM memory_items WHERE status = 'active' AND kind = 'user_preference'
                                          AND thread_id IS NULL LIMIT ${COUNT_CAP})) AS preferences,
                (SELECT count(*) FROM (SELECT 1 FROM memory_items WHERE status = 'active' AND kind = 'project_decision'
                                          AND thread_id IS NULL LIMIT ${COUNT_CAP})) AS decisions
           FROM threads t WHERE t.id = :thread`,
      )
      .get({ turn: handle.turnId, thread: handle.threadId });
    const recent = conn
      .stmt<IndexRow>(
        `SELECT * FROM (SELECT id, kind, title, synopsis FROM memory_items
                         WHERE status = 'active' AND kind = 'user_preference' AND thread_id IS NULL
                         ORDER BY updated_at DESC LIMIT ${INDEX_ROWS_PER_KIND})
         UNION ALL
         SELECT * FROM (SELECT id, kind, title, synopsis FROM memory_items
                         WHERE status = 'active' AND kind = 'project_decision' AND thread_id IS NULL
                         ORDER BY updated_at DESC LIMIT ${INDEX_ROWS_PER_KIND})
         UNION ALL
         SELECT * FROM (SELECT id, kind, title, synopsis FROM memory_items
                         WHERE status = 'active' AND kind = 'discussion_context' AND thread_id = ?
                         ORDER BY updated_at DESC LIMIT ${INDEX_ROWS_PER_KIND})`,
      )
      .all(handle.threadId);
    const compaction = context?.compaction.trim() ?? '';
    if (recent.length === 0 && compaction.length === 0) return { text: '', shown: [] };
    const total = (context?.preferences ?? 0) + (context?.decisions ?? 0);
    const capped = context?.preferences === COUNT_CAP || context?.decisions === COUNT_CAP;
    const byRecency = recent.filter((r) => r.kind !== 'discussion_context');
    const budget = compaction.length > 0 ? INDEX_BUDGET : INDEX_BUDGET_WITHOUT_SUMMARY;
    let chosen = byRecency;
    if (total > byRecency.length || !fitsWhole(byRecency, budget)) {
      const request = `${context?.request ?? ''}\n${compaction.slice(-SUMMARY_TAIL_CHARS)}`;
      const ranked = rankForRouting(conn, handle.threadId, request);
      const ofKind = (kind: MemoryKind): IndexRow[] => [...ranked, ...byRecency].filter((r) => r.kind === kind);
      const seen = new Set<string>();
      chosen = [...ofKind('user_preference'), ...ofKind('project_decision')].filter((r) => !seen.has(r.id) && seen.add(r.id));
    }
    return composeRouting(
      compaction,
      chosen,
      { total, capped },
      recent.filter((r) => r.kind === 'discussion_context'),
      budget,
    );
  });
}

/** True when every row's line fits the budget (stops at the first that does not). */
function fitsWhole(rows: IndexRow[], budget: number): boolean {
  let left = budget;
  for (const row of rows) {
    left -= lineOf(row).length;
    if (left < 0) return false;
  }
  return true;
}

// One line per row, made once: the fit check and the composition both need it.
const lineCache = new WeakMap<IndexRow, string>();

function lineOf(row: IndexRow): string {
  let line = lineCache.get(row);
  if (line === undefined) {
    const summary = row.synopsis.trim().length > 0 ? ` — ${dataLine(row.synopsis, 160)}` : '';
    line = `- [${row.id}] ${dataLine(row.title, 160)}${summary}\n`;
    lineCache.set(row, line);
  }
  return line;
}

function composeRouting(
  compaction: string,
  chosen: IndexRow[],
  count: { total: number; capped: boolean },
  discussions: IndexRow[],
  indexBudget: number,
): RoutingView {
  const { total, capped } = count;
  const header = `# Project memory\n${BOUNDARY_NOTE}\nUse memory_search and memory_read for details.\n`;
  let left = ROUTING_BUDGET - header.length;
  const parts: string[] = [header];
  const shown: RoutedItem[] = [];
  // Lines in the order given, while they fit; a section title only above a line that is shown.
  const section = (rows: IndexRow[], kinds: MemoryKind[], budget: number, hiddenCount: (shown: number) => number): void => {
    const more = (n: number): string =>
      n <= 0 ? '' : `(${capped && kinds.includes('project_decision') ? 'more than ' : ''}${n} more; find them with memory_search)\n`;
    const reserve = more(hiddenCount(0)).length;
    let room = Math.min(budget, left) - reserve;
    const lines = new Map<MemoryKind, string[]>();
    let count = 0;
    // Preferences come first while they fit, but leave a third of the room to decisions when there are some.
    const decisionsWait = rows.some((r) => r.kind === 'project_decision');
    const preferenceRoom = decisionsWait ? Math.floor((room * 2) / 3) : room;
    let used = 0;
    for (const row of rows) {
      if (room < MIN_LINE) break;
      const title = lines.has(row.kind) ? '' : `\n## ${LABEL[row.kind]}\n`;
      const line = lineOf(row);
      if (title.length + line.length > room) continue;
      if (row.kind === 'user_preference' && used + title.length + line.length > preferenceRoom) continue;
      used += title.length + line.length;
      lines.set(row.kind, [...(lines.get(row.kind) ?? [title]), line]);
      room -= title.length + line.length;
      shown.push({ id: row.id, kind: row.kind, title: row.title });
      count += 1;
    }
    const text = kinds.flatMap((k) => lines.get(k) ?? []).join('') + more(hiddenCount(count));
    parts.push(text);
    left -= text.length;
  };
  section(chosen, ['user_preference', 'project_decision'], indexBudget, (n) => total - n);
  if (compaction.length > 0 && left > 120) {
    const title = "\n## Conversation so far (a summary written by the model, not the user's words)\n";
    const text = `${title}${dataLine(compaction, Math.min(SUMMARY_BUDGET, left - title.length - 8))}\n`;
    parts.push(text);
    left -= text.length;
  }
  section(discussions, ['discussion_context'], left, (n) => discussions.length - n);
  return { text: parts.join('').slice(0, ROUTING_BUDGET), shown };
}
