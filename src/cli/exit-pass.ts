import { describeError } from '../shared/errors.js';
import type { CliContext } from './context.js';
import { renderDrainWarnings } from './render/memory-views.js';

/**
 * M-10.2 on the way out: the Memory jobs pending now get one try (60 s per request at most), with a
 * visible progress line; jobs that fail stay queued for later and are named in a warning.
 */
export async function exitPass(ctx: CliContext): Promise<boolean> {
  try {
    await drainAndClose(ctx);
    return true;
  } catch (error) {
    // Never thrown to main: a locked or full database must not turn leaving into a crash (jobs stay queued).
    ctx.output.err(`Memory exit pass stopped: ${describeError(error)}\n`);
    try {
      await ctx.memory.close();
    } catch {
      // Already reported above; the connection is released when the process ends.
    }
    return false;
  }
}

async function drainAndClose(ctx: CliContext): Promise<void> {
  const status = ctx.memory.status();
  const drain = status.health === 'healthy' && ctx.provider !== null;
  const pending = status.jobs.pending;
  if (drain && pending > 0) ctx.output.err(`processing ${pending} memory job${pending === 1 ? '' : 's'}…\n`);
  const result = await ctx.memory.close({ drain });
  for (const line of renderDrainWarnings(result)) ctx.output.err(`${line}\n`);
  if (!drain && status.health === 'healthy' && status.jobs.pending > 0) {
    ctx.output.err(`${status.jobs.pending} memory job(s) stay queued until a model is configured.\n`);
  }
}
