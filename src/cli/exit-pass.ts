import type { DrainResult } from '../memory/types.js';
import { describeError } from '../shared/errors.js';
import type { CliContext } from './context.js';
import { literal } from './output.js';
import { renderDrainWarnings } from './render/memory-views.js';
import { styleFor } from './render/style.js';

const EXPLAINS = 'autopatch-j memory status explains';

/** What the exit pass did, for `ask --json`. */
export interface ExitPassSummary {
  /** False when the pass itself failed (a locked or full database); the jobs stay queued. */
  ok: boolean;
  processed: number;
  queued: number;
  failed: number;
  skipped: string | null;
  line: string | null;
}

/**
 * M-10.2 on the way out: the Memory jobs pending now get one try, ending with ONE line on stderr (what
 * was processed, what stays queued or failed and why, and where to look). A provider that already timed
 * out, was unreachable or refused the key in this process is not waited on again; Ctrl-C skips the pass.
 */
export async function exitPass(ctx: CliContext, options: { onDrained?: () => void } = {}): Promise<ExitPassSummary> {
  try {
    return await drainAndClose(ctx, options.onDrained);
  } catch (error) {
    // Never thrown to main: a locked or full database must not turn leaving into a crash (jobs stay queued).
    ctx.output.err(`Memory exit pass stopped: ${describeError(error)}\n`);
    try {
      await ctx.memory.close();
    } catch {
      // Already reported above; the connection is released when the process ends.
    }
    return { ok: false, processed: 0, queued: 0, failed: 0, skipped: 'the exit pass failed', line: null };
  }
}

async function drainAndClose(ctx: CliContext, onDrained: (() => void) | undefined): Promise<ExitPassSummary> {
  const style = styleFor(ctx.output, 'err');
  // Index-only reads: the exit pass of a session over a large Memory does not count every table.
  const health = ctx.memory.health().health;
  const healthy = health === 'healthy';
  const jobs = ctx.memory.openJobs();
  const pending = jobs.pending;
  const failedBefore = jobs.failed;
  const trouble = ctx.llm?.trouble ?? null;
  let skipped: string | null = null;
  if (!healthy) skipped = health === 'closed' ? 'Memory is closed' : 'Memory is degraded';
  else if (!ctx.llm) skipped = 'no model is configured';
  else if (trouble) skipped = troubleWords(trouble.kind);
  const drain = skipped === null && pending > 0;
  let interrupted = false;
  const onInterrupt = (): void => {
    interrupted = true;
    ctx.llm?.cancelAll();
  };
  if (drain) {
    process.once('SIGINT', onInterrupt);
    if (ctx.output.interactive)
      ctx.output.errRich(style.dim(`processing ${pending} memory job${pending === 1 ? '' : 's'}… (Ctrl-C skips)`));
  }
  let result: DrainResult = { attempted: 0, succeeded: 0, retried: 0, failed: 0, warnings: [] };
  try {
    result = await ctx.memory.close({ drain, ...(onDrained ? { onDrained } : {}) });
  } finally {
    process.off('SIGINT', onInterrupt);
    if (drain && ctx.output.interactive) ctx.output.control('\r\u001b[2K');
  }
  if (interrupted) skipped = 'skipped with Ctrl-C';
  if (ctx.config.debug) for (const line of renderDrainWarnings(result)) ctx.output.err(`${line}\n`);
  const failedNow = result.failed;
  const queued = drain ? result.retried : pending;
  const summary: ExitPassSummary = {
    ok: true,
    processed: result.succeeded,
    queued: Math.max(0, queued),
    failed: failedBefore + failedNow,
    skipped,
    line: null,
  };
  const parts: string[] = [];
  if (summary.processed > 0) parts.push(`${summary.processed} job${summary.processed === 1 ? '' : 's'} processed`);
  if (summary.queued > 0) {
    const why = skipped ?? reasonWords(result.warnings[0]?.message ?? '');
    parts.push(`${summary.queued} still queued (${why})`);
  }
  if (summary.failed > 0) parts.push(`${summary.failed} failed (the model's answers were unusable; memory retry puts them back)`);
  if (parts.length === 0) return summary;
  const needsLook = summary.queued > 0 || summary.failed > 0;
  summary.line = `memory: ${parts.join(' · ')}${needsLook ? ` — ${EXPLAINS}` : ''}`;
  ctx.output.errRich(`${needsLook ? style.yellow(literal(summary.line)) : style.dim(literal(summary.line))}\n`);
  return summary;
}

function troubleWords(kind: 'timeout' | 'unreachable' | 'auth' | 'model_not_found'): string {
  switch (kind) {
    case 'timeout':
      return 'the provider timed out earlier, not waiting again';
    case 'unreachable':
      return 'the provider was unreachable earlier, not waiting again';
    case 'auth':
      return 'the provider refused the API key';
    case 'model_not_found':
      return 'the model was not found';
  }
}

/** A few words on why a job did not finish, from its short error. */
export function reasonWords(message: string): string {
  const m = message.toLowerCase();
  if (m.includes('cancel')) return 'cancelled';
  if (m.includes('timed out') || m.includes('did not answer') || m.includes('timeout')) return 'the provider timed out';
  if (m.includes('connection failed') || m.includes('could not be reached')) return 'the provider was unreachable';
  const http = /\b([45]\d\d)\b/.exec(m);
  if (http) return `the provider answered HTTP ${http[1]}`;
  if (m.includes('contract')) return 'the answer broke the Memory contract';
  return literal(message.split('\n')[0]!.slice(0, 60)) || 'failed';
}
