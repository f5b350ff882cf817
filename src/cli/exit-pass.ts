import { memoryRequestTimeoutMs } from '../config/config.js';
import { type DrainResult, EXIT_PASS_BUDGET_MS } from '../memory/types.js';
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
 * M-10.2 on the way out: the Memory jobs pending now get one try — this process's own turns' jobs first, new
 * work claimed for at most 10 s — ending with ONE line on stderr (what was processed, what stays queued or
 * failed and why, who takes the rest, and where to look). A job the background worker runs at that moment is
 * waited for, and the wait is shown at once; a provider that already timed out, was unreachable or refused the
 * key in this process is not waited on at all; Ctrl-C skips the pass and the wait.
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
  // A job the background worker is running now: closing waits for it, so say so at once (Ctrl-C skips it).
  // After the provider already timed out or was unreachable, it is not waited on at all.
  const inFlight = ctx.memory.backgroundWork();
  if (inFlight && trouble) ctx.llm?.cancelAll();
  const waitsInFlight = inFlight !== null && trouble === null;
  let interrupted = false;
  const onInterrupt = (): void => {
    interrupted = true;
    ctx.llm?.cancelAll();
  };
  if (drain || waitsInFlight) process.once('SIGINT', onInterrupt);
  const shown = ctx.output.interactive && (drain || waitsInFlight);
  if (shown) {
    // The worker's request timeout (M-10.2: at most 60 s, never more than AUTOPATCH_LLM_TIMEOUT_MS).
    const atMost = Math.round(memoryRequestTimeoutMs(ctx.config.llm) / 1000);
    const what = waitsInFlight
      ? `waiting for the memory ${inFlight.kind} job in flight (at most ${atMost} s)` +
        `${drain ? `, then ${pending} queued memory job${pending === 1 ? '' : 's'}` : ''}`
      : `processing ${pending} memory job${pending === 1 ? '' : 's'}`;
    ctx.output.errRich(style.dim(`${what}… (Ctrl-C skips)`));
  }
  let result: DrainResult = { attempted: 0, succeeded: 0, retried: 0, failed: 0, warnings: [] };
  try {
    result = await ctx.memory.close({ drain, ...(onDrained ? { onDrained } : {}) });
  } finally {
    process.off('SIGINT', onInterrupt);
    if (shown) ctx.output.control('\r\u001b[2K');
  }
  if (interrupted) skipped = 'skipped with Ctrl-C';
  if (ctx.config.debug) for (const line of renderDrainWarnings(result)) ctx.output.err(`${line}\n`);
  const failedNow = result.failed;
  // Cut off with Ctrl-C: the job in flight goes back to the queue, as do the ones never reached.
  const cutOff = inFlight !== null && (trouble !== null || interrupted) ? inFlight.jobs : 0;
  const queued = drain ? result.retried + (result.notTried ?? 0) : pending + cutOff;
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
    const why =
      skipped ??
      (result.budgetSpent && (result.notTried ?? 0) > 0
        ? `the exit pass stops after ${Math.round(EXIT_PASS_BUDGET_MS / 1000)} s`
        : result.warnings[0]
          ? reasonWords(result.warnings[0].message)
          : notReached(jobs));
    // Who takes them: anyone with a working model — unless nothing can until the person acts.
    const stuck = !healthy || !ctx.llm || trouble?.kind === 'auth' || trouble?.kind === 'model_not_found';
    parts.push(`${summary.queued} still queued (${why}${stuck ? '' : '; a running session or the next start takes them'})`);
  }
  const gone = ctx.memory.goneProcessLeases();
  if (gone.reclaimed > 0 || gone.stillLeased > 0) {
    const n = gone.reclaimed + gone.stillLeased;
    const pids = gone.pids.length > 0 ? ` (pid ${gone.pids.join(', ')})` : '';
    parts.push(
      gone.stillLeased > 0
        ? `${n} leased by a process that has ended${pids}, taken back at the next start`
        : `${n} taken back from a process that had ended${pids}`,
    );
  }
  if (summary.failed > 0) parts.push(`${summary.failed} failed (the model's answers were unusable; memory retry puts them back)`);
  if (parts.length === 0) return summary;
  const needsLook = summary.queued > 0 || summary.failed > 0;
  summary.line = `memory: ${parts.join(' · ')}${needsLook ? ` — ${EXPLAINS}` : ''}`;
  ctx.output.errRich(`${needsLook ? style.yellow(literal(summary.line)) : style.dim(literal(summary.line))}\n`);
  return summary;
}

/**
 * Why jobs of the pass were never tried although nothing failed: a thread's jobs run in order, so they wait
 * behind an older job of their thread that waits to retry, or that another process is running.
 */
function notReached(jobs: { retryWait: number; leased: number }): string {
  if (jobs.retryWait > 0) {
    const n = jobs.retryWait;
    return `they wait behind ${n} job${n === 1 ? '' : 's'} of their thread that wait${n === 1 ? 's' : ''} to retry`;
  }
  if (jobs.leased > 0) return 'another process is running the jobs of their thread';
  return 'not reached in this pass';
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
