// Builds benchmark databases through the real schema, bootstrap and item store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryManager } from '../dist/index.js';
import { Connection } from '../dist/memory/db/connection.js';
import { insertRevision } from '../dist/memory/store/items.js';

export function itemId(k) {
  return 'm' + k.toString(32).padStart(8, '0');
}

const hex = (k, width = 12) => k.toString(16).padStart(width, '0');

export function freshRepo(label) {
  const dir = mkdtempSync(join(tmpdir(), `autopatch-j-bench-${label}-`));
  const memory = MemoryManager.open({ repoRoot: dir });
  const threadId = memory.status().activeThreadId;
  return { dir, threadId, close: () => memory.close(), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The turn and extraction-job inserts both seeders share: turn k is sequence k+1 in the active thread. */
function turnStatements(conn, threadId, jobStatus) {
  const turn = conn.db.prepare(
    `INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, 'general_chat', ?, ?, 'completed', ?, ?, ?)`,
  );
  const job = conn.db.prepare(
    `INSERT INTO memory_jobs (id, kind, status, thread_id, turn_id, turn_sequence, generation, attempt_count,
                              batch_id, available_at, created_at, updated_at, finished_at)
     VALUES (?, 'extraction', ?, ?, ?, ?, 1, 1, ?, ?, ?, ?, ?)`,
  );
  return (k, user, assistant, ts) => {
    const turnId = `turn-${hex(k + 1)}`;
    turn.run(turnId, threadId, k + 1, user, assistant, ts, ts, ts);
    job.run(`job-${hex(k + 1)}`, jobStatus, threadId, turnId, k + 1, `batch-${hex(Math.floor(k / 4) + 1)}`, ts, ts, ts, ts);
    return turnId;
  };
}

function seedingConnection(dir) {
  const conn = Connection.open(join(dir, '.autopatch-j', 'memory.db'));
  conn.db.pragma('synchronous = OFF');
  return conn;
}

/** N completed turns in the active thread, each with a succeeded_no_output extraction job (rules.seeded_turn_db). */
export async function seedTurns(workload, n, label) {
  const repo = freshRepo(label);
  await repo.close();
  const conn = seedingConnection(repo.dir);
  const base = Math.round(workload.base_ts * 1000);
  const addTurn = turnStatements(conn, repo.threadId, 'succeeded_no_output');
  conn.db.transaction(() => {
    for (let k = 0; k < n; k += 1) {
      const [user, assistant] = workload.admission_turns[k % workload.admission_turns.length];
      addTurn(k, user, assistant, base + k);
    }
    conn.db
      .prepare('UPDATE threads SET compaction = ?, compaction_sequence = ? WHERE id = ?')
      .run(workload.compaction.slice(0, 4000), n, repo.threadId);
  })();
  conn.db.pragma('wal_checkpoint(TRUNCATE)');
  conn.close();
  return repo;
}

/** items[0:N] with full provenance (rules.seeded_item_db): turn, extraction job, candidate, item, terms. */
export async function seedItems(workload, n, label) {
  const repo = freshRepo(label);
  await repo.close();
  const conn = seedingConnection(repo.dir);
  const base = Math.round(workload.base_ts * 1000);
  const kinds = workload.kind_codes;
  const addTurn = turnStatements(conn, repo.threadId, 'succeeded');
  const consolidation = conn.db.prepare(
    `INSERT INTO memory_jobs (id, kind, status, thread_id, parent_job_id, generation, attempt_count, batch_id,
                              available_at, created_at, updated_at, finished_at)
     VALUES (?, 'consolidation', 'succeeded', ?, ?, 1, 1, ?, ?, ?, ?, ?)`,
  );
  const candidate = conn.db.prepare(
    `INSERT INTO memory_candidates (id, extraction_job_id, consolidation_job_id, thread_id, kind, title, content, aliases,
                                    non_factual, status, generation, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'consolidated', 1, ?, ?)`,
  );
  const source = conn.db.prepare(
    `INSERT INTO candidate_sources (candidate_id, ordinal, turn_id, role, quote, quote_start) VALUES (?, 0, ?, 'user', ?, ?)`,
  );
  conn.db.transaction(() => {
    for (let batch = 0; batch * 4 < n; batch += 1) {
      const lead = `job-${hex(batch * 4 + 1)}`;
      const consolidationId = `job-c${hex(batch + 1, 11)}`;
      const batchTs = base + batch * 4;
      for (let k = batch * 4; k < Math.min(n, batch * 4 + 4); k += 1) {
        const [kindCode, title, aliases, keywords, content, synopsis] = workload.items[k];
        const kind = kinds[kindCode];
        const [prefixUser, assistant] = workload.admission_turns[k % workload.admission_turns.length];
        const quote = workload.clause_prefix[kind] + content;
        const userText = `${prefixUser}。${quote}`;
        const ts = base + k;
        const turnId = addTurn(k, userText, assistant, ts);
        if (k === batch * 4) {
          consolidation.run(consolidationId, repo.threadId, lead, `batch-c${hex(batch + 1)}`, batchTs, batchTs, batchTs, batchTs);
        }
        const candidateId = `cand-${hex(k + 1)}`;
        const threadId = kind === 'discussion_context' ? repo.threadId : null;
        candidate.run(
          candidateId,
          lead,
          consolidationId,
          repo.threadId,
          kind,
          title,
          content,
          JSON.stringify(aliases),
          kind === 'discussion_context' ? 1 : 0,
          ts,
          ts,
        );
        source.run(candidateId, turnId, quote, Array.from(prefixUser).length + 1);
        insertRevision(conn, {
          id: itemId(k),
          revision: 1,
          kind,
          threadId,
          title,
          content,
          synopsis,
          aliases,
          keywords,
          supersedesId: null,
          consolidationJobId: consolidationId,
          candidateIds: [candidateId],
          now: ts,
        });
      }
    }
  })();
  conn.db.pragma('wal_checkpoint(TRUNCATE)');
  conn.close();
  return repo;
}
