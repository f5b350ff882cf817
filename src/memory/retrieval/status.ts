import type { Connection } from '../db/connection.js';
import { readMeta } from '../store/meta.js';
import { countUsableItems } from '../store/items.js';
import { countJobs, refusalCounts, unresolvedJobs } from '../store/job-counts.js';
import { findActiveThread } from '../store/threads.js';
import { goneLeases } from '../store/leases.js';
import { countTurns } from '../store/turns.js';
import { countHeldSuggestions } from '../store/held.js';
import type { FilteredCounts, MemoryStatus } from '../types.js';

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
    suggestions: 0,
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
  // Issue "Safe hands", item 6: leases still held by processes of this machine that have ended (a start that could
  // not write yet has not taken them back).
  attempt(() => {
    const gone = goneLeases(conn);
    const n = gone.jobs + gone.turns;
    if (n > 0)
      status.warnings.push(
        `${gone.jobs} job(s) and ${gone.turns} turn(s) are leased by process ${gone.pids.join(', ')}, which has ended; ` +
          'the next start that can write takes them back (a turn once its lease is over)',
      );
  });
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
      status.activeThreadId = findActiveThread(conn)?.id ?? null;
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
    attempt(() => {
      if (status.activeThreadId !== null) status.suggestions = countHeldSuggestions(conn, status.activeThreadId);
    });
  };
  // The counts read whole tables (no index of the Memory v2 catalog can answer them). No memory map: a disk
  // read error through one kills the process (SIGBUS), and status must explain a broken database.
  try {
    conn.read(read);
  } catch {
    read();
  }
  return status;
}

/** Refusals by reason, summed over the finished jobs' diagnostics (M-5.4, M-6.4). */
function countFiltered(conn: Connection): FilteredCounts {
  const byReason = refusalCounts(conn);
  return { total: Object.values(byReason).reduce((a, b) => a + b, 0), byReason };
}
