import { clip } from '../../shared/text.js';
import type { Connection } from '../db/connection.js';
import type { ChatMessage, MemoryKind, TurnHandle } from '../types.js';

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

// Items per kind considered for the index; the character budget usually stops far earlier.
const INDEX_ROWS_PER_KIND = 40;

const LABEL: Record<MemoryKind, string> = {
  user_preference: 'User preferences (explicitly stated by the user)',
  project_decision: 'Project decisions (confirmed by the user)',
  discussion_context: 'Current discussion (context, not facts)',
};

/**
 * The Memory routing context of an ordinary request (M-8.2), at most 4,000 characters in all: the boundary
 * note, the active preferences and decisions, the bound thread's compaction and its discussion index.
 * Returns '' for a healthy empty Memory (M-2.5).
 */
export function routingContext(conn: Connection, handle: TurnHandle): string {
  return conn.read(() => {
    const thread = conn.stmt<{ compaction: string }>('SELECT compaction FROM threads WHERE id = ?').get(handle.threadId);
    const rows = conn
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
    const compaction = thread?.compaction.trim() ?? '';
    if (rows.length === 0 && compaction.length === 0) return '';
    return composeRouting(compaction, rows);
  });
}

function composeRouting(compaction: string, rows: IndexRow[]): string {
  const header = `# Project memory\n${BOUNDARY_NOTE}\nUse memory_search and memory_read for details.\n`;
  let left = ROUTING_BUDGET - header.length;
  const parts: string[] = [header];
  const section = (kinds: MemoryKind[], cap: number): void => {
    const items = rows.filter((r) => kinds.includes(r.kind));
    if (items.length === 0 || left <= 0) return;
    let budget = Math.min(cap, left);
    const lines: string[] = [];
    let shown = 0;
    for (const kind of kinds) {
      const ofKind = items.filter((r) => r.kind === kind);
      if (ofKind.length === 0) continue;
      const title = `\n## ${LABEL[kind]}\n`;
      if (title.length + 40 > budget) break;
      lines.push(title);
      budget -= title.length;
      for (const row of ofKind) {
        const summary = row.synopsis.trim().length > 0 ? ` — ${row.synopsis.trim()}` : '';
        const line = clip(`- [${row.id}] ${row.title}${summary}`, 300) + '\n';
        if (line.length > budget) break;
        lines.push(line);
        budget -= line.length;
        shown += 1;
      }
    }
    const hidden = items.length - shown;
    const more = hidden > 0 ? `(${hidden} more; find them with memory_search)\n` : '';
    const text = lines.join('') + (more.length <= budget ? more : '');
    parts.push(text);
    left -= text.length;
  };
  section(['user_preference', 'project_decision'], 2_200);
  if (compaction.length > 0 && left > 80) {
    const title = '\n## Conversation so far (summary)\n';
    const text = title + clip(compaction, Math.min(1_400, left - title.length - 1)) + '\n';
    parts.push(text);
    left -= text.length;
  }
  section(['discussion_context'], left);
  return parts.join('').slice(0, ROUTING_BUDGET);
}
