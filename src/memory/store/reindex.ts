import type { Connection } from '../db/connection.js';
import { markTermsCurrent, termsCurrent } from '../db/term-format.js';
import { indexTerms } from './items.js';

/**
 * Term rows are derived data: a database whose rows an older format wrote (character bigrams, suffixes at
 * every position, no canonical forms) gets every row written again from its active items, in one write
 * transaction, unless another process did it first. Returns the number of items indexed (0 when current).
 */
export function reindexTerms(conn: Connection): number {
  return conn.immediate(() => {
    if (termsCurrent(conn)) return 0;
    conn.db.exec('DELETE FROM memory_terms; DELETE FROM memory_term_suffixes; DELETE FROM memory_content_terms;');
    const rows = conn
      .stmt<{ id: string; thread_id: string | null; title: string; aliases: string; keywords: string; content: string; synopsis: string }>(
        `SELECT id, thread_id, title, aliases, keywords, content, synopsis FROM memory_items WHERE status = 'active' AND is_current = 1`,
      )
      .all();
    for (const row of rows) {
      indexTerms(conn, row.id, row.thread_id, {
        title: row.title,
        aliases: JSON.parse(row.aliases) as string[],
        keywords: JSON.parse(row.keywords) as string[],
        content: row.content,
        synopsis: row.synopsis,
      });
    }
    markTermsCurrent(conn);
    return rows.length;
  });
}
