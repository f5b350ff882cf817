import type { Connection } from './connection.js';
import { readMeta } from './store/meta.js';
import { countJobs, unresolvedJobs } from './store/jobs.js';
import { countTurns } from './store/turns.js';
import type { FilteredCounts, MemoryKind, MemoryStatus } from './types.js';

/**
 * Builds the status from whatever can be read. While degraded, each part that cannot be read stays at
 * its empty value: status must explain a broken database, not fail on it (M-2.4).
 */
export function readStatus(
  conn: Connection | null,
  context: { dbPath: string; degradedReason: string | null; warnings: string[]; backgroundError?: string | null },
): MemoryStatus {
  const status: MemoryStatus = {
    health: context.degradedReason === null ? 'healthy' : 'degraded',
    degradedReason: context.degradedReason,
    dbPath: context.dbPath,
    schemaVersion: null,
    generation: null,
    activeThreadId: null,
    turns: { open: 0, completed: 0, failed: 0, interrupted: 0 },
    jobs: { pending: 0, leased: 0, retryWait: 0, failed: 0, succeeded: 0, succeededNoOutput: 0 },
    items: { user_preference: 0, project_decision: 0, discussion_context: 0 },
    filteredCandidates: { total: 0, byReason: {} },
    unresolved: { failed: [], oldestCreatedAt: null, maxAttempts: 0 },
    backgroundError: context.backgroundError ?? null,
    lastError: null,
    lastSucceededAt: null,
    createdAt: null,
    warnings: [...context.warnings],
  };
  if (!conn) return status;
  const attempt = (part: () => void): void => {
    try {
      part();
    } catch {
      // Unreadable while degraded: the degraded reason already says why.
    }
  };
  const read = (): void => {
    attempt(() => {
      status.schemaVersion = conn.db.pragma('user_version', { simple: true }) as number;
    });
    attempt(() => {
      const meta = readMeta(conn);
      if (!meta) return;
      status.generation = meta.generation;
      status.lastError = meta.lastError;
      status.lastSucceededAt = meta.lastSucceededAt;
      status.createdAt = meta.createdAt;
    });
    attempt(() => {
      status.activeThreadId = conn.stmt<{ id: string }>("SELECT id FROM threads WHERE status = 'active' LIMIT 1").get()?.id ?? null;
    });
    attempt(() => {
      status.turns = countTurns(conn);
    });
    attempt(() => {
      status.jobs = countJobs(conn);
    });
    attempt(() => {
      status.unresolved = unresolvedJobs(conn);
    });
    attempt(() => {
      status.items = countUsableItems(conn, status.activeThreadId);
    });
    attempt(() => {
      status.filteredCandidates = countFiltered(conn);
    });
  };
  try {
    conn.read(read);
  } catch {
    read();
  }
  return status;
}

function countUsableItems(conn: Connection, activeThreadId: string | null): Record<MemoryKind, number> {
  const out: Record<MemoryKind, number> = { user_preference: 0, project_decision: 0, discussion_context: 0 };
  const rows = conn
    .stmt<{ kind: MemoryKind; n: number }>(
      `SELECT kind, count(*) AS n FROM memory_items
        WHERE status = 'active' AND (kind <> 'discussion_context' OR thread_id = ?)
        GROUP BY kind`,
    )
    .all(activeThreadId);
  for (const row of rows) out[row.kind] = row.n;
  return out;
}

/** Sums the refusals recorded in job diagnostics: the extraction validator's (M-5.4) and consolidation's (M-6.4). */
function countFiltered(conn: Connection): FilteredCounts {
  const rows = conn
    .stmt<{ reason: string; n: number }>(
      `SELECT f.key AS reason, sum(f.value) AS n
         FROM memory_jobs j, json_each(j.diagnostics, '$.filtered') f
        WHERE j.diagnostics IS NOT NULL AND j.finished_at IS NOT NULL
        GROUP BY f.key`,
    )
    .all();
  const byReason: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    byReason[row.reason] = row.n;
    total += row.n;
  }
  return { total, byReason };
}
