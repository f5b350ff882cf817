import type { MemoryChange } from '../../memory/types.js';
import type { CliContext } from '../context.js';
import type { ExitPassSummary } from '../exit-pass.js';
import type { RequestOutcome } from '../request.js';
import { type CommandOutput, EXIT } from './command-output.js';
import { changesJson } from './remember-command.js';

/**
 * What `ask` ended with, as every command returns it: the answer (already shown while it streamed), the
 * `--json` document, and the exit code (a failed exit pass makes a good answer exit 1).
 */
export function askResult(
  ctx: CliContext,
  outcome: RequestOutcome,
  pass: ExitPassSummary,
  changes: readonly MemoryChange[],
): CommandOutput {
  const exitCode = !pass.ok && outcome.exitCode === EXIT.ok ? EXIT.failure : outcome.exitCode;
  const r = outcome.result;
  const patch = ctx.workspace.pendingPatch;
  return {
    text: r?.text ?? outcome.error ?? '',
    json: {
      ok: exitCode === EXIT.ok,
      answer: r?.text ?? null,
      intent: r?.intent ?? null,
      turnId: r?.turn?.id ?? null,
      ...(outcome.error ? { error: outcome.error } : {}),
      pendingPatch: patch ? { id: patch.id, summary: patch.summary } : null,
      findings: ctx.workspace.findings,
      usage: outcome.usage,
      memoryJobs: { processed: pass.processed, queued: pass.queued, failed: pass.failed, skipped: pass.skipped },
      // M-11.2: what Memory did during the request and its exit pass.
      memoryChanges: changesJson(changes),
      // What the answer was given, searched and read (a repair flow never reads Memory).
      memoriesUsed: r?.memoriesUsed ?? { routing: [], searched: [], read: [] },
    },
    exitCode,
  };
}
