import { readRememberAct, rememberAnswer } from '../../memory/remember-command.js';
import type { MemoryChange, RememberResult } from '../../memory/types.js';
import { MemorySchemaError, MemoryUsageError, describeError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { MemoryNotices } from '../notices.js';
import { literal } from '../output.js';
import { KIND_LABEL, degradedHelp, reasonText } from '../render/memory-views.js';
import { noticeLines } from '../render/notices.js';
import { styleFor } from '../render/style.js';
import { type CommandOutput, EXIT, type Surface, exitCodeOf, failure, invocation } from './command-output.js';

export const REMEMBER_USAGE = 'usage: /remember [--decision] <text>   (a preference; --decision: a project decision)';

/** Changes as `--json` prints them: ISO-8601 times. */
export function changesJson(changes: readonly MemoryChange[]): unknown[] {
  return changes.map((c) => ({ ...c, at: new Date(c.at).toISOString() }));
}

/**
 * `/remember [--decision] TEXT` and `autopatch-j memory remember` (M-5.7): the words are admitted as the
 * user's own turn (`typed`: the line as typed), answered by the program's own line, and extracted at once.
 * The answer is that line, then what Memory made of it: the memory (its notice), a refusal with its
 * reason, or that it waits in the queue.
 */
export async function rememberCommand(
  ctx: CliContext,
  input: { text: string; decision: boolean; typed?: string; commands: Surface },
): Promise<CommandOutput> {
  const text = input.text.trim();
  if (text.length === 0) return failure(REMEMBER_USAGE, EXIT.usage, { error: 'usage' });
  const kind = input.decision ? 'project_decision' : 'user_preference';
  const board = ctx.session?.notices ?? new MemoryNotices(ctx.memory);
  let result: RememberResult;
  try {
    result = await withProviderHold(ctx, () =>
      // The line as typed is the turn's RAW text when it is the remember command itself (`/remember …`).
      ctx.memory.remember({ text, kind, ...(input.typed !== undefined && readRememberAct(input.typed) ? { typed: input.typed } : {}) }),
    );
  } catch (error) {
    if (error instanceof MemoryUsageError) return failure(`${literal(error.message)}\n${REMEMBER_USAGE}`, EXIT.usage, { error: 'usage' });
    if (error instanceof MemorySchemaError) return failure(degradedHelp(error.reason), exitCodeOf(error), { error: 'degraded' });
    return failure(`remember failed: ${literal(describeError(error))}`, exitCodeOf(error));
  }
  const changes = board.take();
  const outcome = outcomeLines(result, changes, input.commands);
  return {
    text: [rememberAnswer(kind), ...outcome.map((l) => styleFor(ctx.output, 'out').dim(l))].join('\n'),
    rich: true,
    json: { ...result, changes: changesJson(changes) },
    exitCode: result.outcome === 'refused' ? EXIT.failure : EXIT.ok,
  };
}

/** Runs a Memory call that talks to the model at once; a provider that already failed in this run is not waited on again (as for /new). */
export async function withProviderHold<T>(ctx: CliContext, call: () => Promise<T>): Promise<T> {
  if (ctx.llm) ctx.llm.holdMemoryCalls = ctx.llm.trouble != null;
  try {
    return await call();
  } finally {
    if (ctx.llm) ctx.llm.holdMemoryCalls = false;
  }
}

/**
 * What Memory made of a remember or a keep, in lines the caller dims: the notices of what it changed (or,
 * when the words repeat a memory, which one now holds them), why it was refused, or that it waits.
 */
export function outcomeLines(
  result: Pick<RememberResult, 'outcome' | 'memory' | 'reason'>,
  changes: readonly MemoryChange[],
  commands: Surface,
): string[] {
  const reason = literal(result.reason ?? result.outcome);
  if (result.outcome === 'refused') return [`not remembered: ${reasonText(reason)} — ${invocation('memory refused', commands)} lists it`];
  if (result.outcome === 'queued') {
    return [`it waits in the queue (${reason}) and is remembered once a model answers — ${invocation('memory status', commands)}`];
  }
  const lines = noticeLines(changes, commands);
  const m = result.memory!;
  if (!changes.some((c) => c.id === m.id)) {
    lines.push(
      `already remembered: ${KIND_LABEL[m.kind]} ${m.id} "${literal(m.title)}" — ` +
        `your words were added to its sources · ${invocation(`memory show ${m.id}`, commands)}`,
    );
  }
  return lines;
}
