import { MemoryManager } from '../../src/index.js';
import { Connection } from '../../src/memory/db/connection.js';
import { insertRevision } from '../../src/memory/store/items.js';
import type { MemoryKind } from '../../src/memory/types.js';
import { dbPathOf, tempRepo } from './temp-repo.js';

export interface Seed {
  kind: MemoryKind;
  title: string;
  content?: string;
  aliases?: string[];
  keywords?: string[];
  synopsis?: string;
}

/** Writes items straight through the item store (with a consolidation job for the foreign key). */
export function seedItems(repo: string, items: Seed[]): string[] {
  void MemoryManager.open({ repoRoot: repo }).close();
  const conn = Connection.open(dbPathOf(repo));
  const thread = (conn.db.prepare("SELECT id FROM threads WHERE status = 'active'").get() as { id: string }).id;
  conn.db.exec(`
    INSERT OR IGNORE INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
    VALUES ('turn-seed', '${thread}', 100000, 'general_chat', 'seed', 'seed', 'completed', 0, 0, 0);
    INSERT OR IGNORE INTO memory_jobs (id, kind, status, thread_id, turn_id, turn_sequence, generation, available_at, created_at, updated_at, finished_at)
    VALUES ('job-seed-parent', 'extraction', 'succeeded', '${thread}', 'turn-seed', 100000, 1, 0, 0, 0, 0);
    INSERT OR IGNORE INTO memory_jobs (id, kind, status, thread_id, parent_job_id, generation, available_at, created_at, updated_at, finished_at)
    VALUES ('job-seed', 'consolidation', 'succeeded', '${thread}', 'job-seed-parent', 1, 0, 0, 0, 0);`);
  const ids = items.map((item, i) => {
    const id = `mseed${String(i).padStart(4, '0')}`;
    conn.immediate(() =>
      insertRevision(conn, {
        id,
        revision: 1,
        kind: item.kind,
        threadId: item.kind === 'discussion_context' ? thread : null,
        title: item.title,
        content: item.content ?? item.title,
        synopsis: item.synopsis ?? '',
        aliases: item.aliases ?? [],
        keywords: item.keywords ?? [],
        supersedesId: null,
        consolidationJobId: 'job-seed',
        candidateIds: [],
        now: 1_000 + i,
      }),
    );
    return id;
  });
  conn.close();
  return ids;
}

/** Seeds the items in a fresh repository and gives `check` the titles a search returns, query by query. */
export async function withTitles(items: Seed[], check: (titles: (q: string) => string[]) => void): Promise<void> {
  const repo = tempRepo();
  seedItems(repo, items);
  const memory = MemoryManager.open({ repoRoot: repo });
  const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
  try {
    check((q) => memory.search(handle, q).map((h) => h.title));
  } finally {
    memory.failTurn(handle);
    await memory.close();
  }
}
