import { isUntrustedReason, moveAsideCommand } from '../../shared/data-trust.js';
import { z } from 'zod';
import type { MemoryStatus } from '../../memory/types.js';
import { recoveryCommands, shellWord } from '../recovery.js';
import { isoTime } from './schemas.js';
import { defineMcpTool } from './mcp-tool.js';

const Counts = z.record(z.string(), z.number());

/** M-9.7: without debug only a short line; the RAW error stays in the database and in exports. */
const LAST_ERROR_HINT = 'a background job failed and will be retried; start the server with AUTOPATCH_DEBUG=true to see the RAW error';

/** `memory_status`: health, counts, jobs and the last error. Works while degraded, for diagnosis. */
export const memoryStatusTool = defineMcpTool({
  name: 'memory_status',
  title: 'Memory status',
  description:
    "Health of this project's memory (healthy or degraded, with the reason and the commands a person runs to recover), " +
    'counts of memories and turns, background jobs (pending, running, waiting to retry, failed for good, done), the ' +
    'last background error and whether a model is configured to process recorded turns. Read only; works while degraded.',
  input: z.strictObject({}),
  output: z.object({
    health: z.enum(['healthy', 'degraded']),
    degraded_reason: z.string().nullable(),
    recovery: z.object({ diagnose: z.string(), keep_copy: z.string(), recover: z.string() }).nullable(),
    db_path: z.string(),
    schema_version: z.number().nullable(),
    generation: z.number().nullable(),
    active_thread_id: z.string().nullable(),
    items: Counts,
    turns: Counts,
    jobs: Counts,
    filtered_candidates: z.object({ total: z.number(), by_reason: Counts }),
    failed_jobs: z.array(z.object({ id: z.string(), kind: z.string(), attempts: z.number(), reason: z.string(), recover: z.string() })),
    oldest_unresolved_at: z.string().nullable(),
    max_attempts: z.number(),
    last_error: z.string().nullable(),
    background_error: z.string().nullable(),
    last_succeeded_at: z.string().nullable(),
    model_configured: z.boolean(),
    background_worker: z.enum(['running', 'stopped']),
    warnings: z.array(z.string()),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(_args, { host, debug }) {
    const memory = await host.current();
    return statusView(memory.status(), {
      debug,
      repoRoot: host.repoRoot,
      modelConfigured: host.modelConfigured,
      workerRunning: host.workerRunning,
    });
  },
});

function statusView(status: MemoryStatus, options: { debug: boolean; repoRoot: string; modelConfigured: boolean; workerRunning: boolean }) {
  const recovery = recoveryCommands(options.repoRoot);
  // A data folder that is not the user's: moving it aside is the recovery, never a clear.
  const moveAside = status.degradedReason === null ? null : moveAsideCommand(status.degradedReason);
  if (moveAside !== null && status.degradedReason !== null && isUntrustedReason(status.degradedReason)) {
    recovery.keepCopy = 'nothing to keep: the folder is not your Memory';
    recovery.recover = moveAside;
  }
  return {
    health: status.health,
    degraded_reason: status.degradedReason,
    recovery:
      status.health === 'degraded' ? { diagnose: recovery.diagnose, keep_copy: recovery.keepCopy, recover: recovery.recover } : null,
    db_path: status.dbPath,
    schema_version: status.schemaVersion,
    generation: status.generation,
    active_thread_id: status.activeThreadId,
    items: { ...status.items },
    turns: { ...status.turns },
    jobs: { ...status.jobs },
    filtered_candidates: { total: status.filteredCandidates.total, by_reason: { ...status.filteredCandidates.byReason } },
    // M-9.4a: terminal until `autopatch-j memory retry`; like the CLI, normal mode shows the reason's first line.
    failed_jobs: status.unresolved.failed.map((j) => ({
      id: j.id,
      kind: j.kind,
      attempts: j.attempts,
      reason: options.debug ? j.reason : j.reason.split('\n')[0]!.slice(0, 160),
      recover: `autopatch-j memory retry ${j.id} --repo ${shellWord(options.repoRoot)}`,
    })),
    oldest_unresolved_at: isoTime(status.unresolved.oldestCreatedAt),
    max_attempts: status.unresolved.maxAttempts,
    last_error: status.lastError === null ? null : options.debug ? status.lastError : LAST_ERROR_HINT,
    background_error:
      status.backgroundError === null ? null : options.debug ? status.backgroundError : status.backgroundError.slice(0, 200),
    last_succeeded_at: isoTime(status.lastSucceededAt),
    model_configured: options.modelConfigured,
    background_worker: options.workerRunning && options.modelConfigured ? ('running' as const) : ('stopped' as const),
    warnings: [...status.warnings],
  };
}
