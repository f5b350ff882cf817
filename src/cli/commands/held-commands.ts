import { keepAnswer } from '../../memory/remember-command.js';
import type { KeepResult } from '../../memory/types.js';
import { MemoryNotFoundError, MemoryProvenanceError, MemorySchemaError, describeError } from '../../shared/errors.js';
import { shortCandidateId } from '../../shared/ids.js';
import type { CliContext } from '../context.js';
import { MemoryNotices } from '../notices.js';
import { literal } from '../output.js';
import { degradedHelp, reasonText } from '../render/memory-views.js';

import { styleFor } from '../render/style.js';
import { type CommandOutput, EXIT, type Surface, exitCodeOf, failure, invocation, ok } from './command-output.js';
import { changesJson, outcomeLines, withProviderHold } from './remember-command.js';

/** A failed keep or dismiss, said plainly; a provenance refusal is a failure (exit 1) that changed nothing. */
function heldFailure(error: unknown, what: string): CommandOutput {
  if (error instanceof MemorySchemaError) return failure(degradedHelp(error.reason), exitCodeOf(error), { error: 'degraded' });
  if (error instanceof MemoryProvenanceError) {
    return failure(
      `${literal(error.message)}.\nIt stays refused (${literal(reasonText(error.reason))}); nothing was changed. ` +
        'A new explicit statement of yours can form the memory.',
      EXIT.failure,
      { error: 'provenance', candidateId: error.candidateId, reason: error.reason },
    );
  }
  if (error instanceof MemoryNotFoundError)
    return failure(literal(error.message), EXIT.failure, { error: 'not_found', id: error.memoryId });
  return failure(`${what} failed: ${literal(describeError(error))}`, exitCodeOf(error));
}

/**
 * `/memory keep ID` and `autopatch-j memory keep ID` (M-5.7): a suggestion, or a refusal of the reading,
 * becomes a memory. `typed` is the line as typed: the keep is recorded as that turn of the user's.
 */
export async function keepCommand(
  ctx: CliContext,
  id: string | undefined,
  options: { typed?: string; commands: Surface },
): Promise<CommandOutput> {
  if (!id) return failure(`usage: ${invocation('memory keep <id>', options.commands)}`, EXIT.usage, { error: 'usage' });
  const board = ctx.session?.notices ?? new MemoryNotices(ctx.memory);
  let result: KeepResult;
  try {
    result = await withProviderHold(ctx, () => ctx.memory.keep(id, options.typed !== undefined ? { typed: options.typed } : {}));
  } catch (error) {
    return heldFailure(error, 'keep');
  }
  const changes = board.take();
  const first = result.alreadyKept ? `${shortCandidateId(result.candidateId)} was kept before; nothing changed.` : keepAnswer(result.kind);
  const dim = styleFor(ctx.output, 'out').dim;
  return {
    text: [first, ...outcomeLines(result, changes, options.commands).map((l) => dim(l))].join('\n'),
    rich: true,
    json: { ...result, changes: changesJson(changes) },
    exitCode: result.outcome === 'refused' ? EXIT.failure : EXIT.ok,
  };
}

/** `/memory dismiss ID`: the suggestion is dropped; the RAW turn it came from stays. */
export async function dismissCommand(ctx: CliContext, id: string | undefined, commands: Surface): Promise<CommandOutput> {
  if (!id) return failure(`usage: ${invocation('memory dismiss <id>', commands)}`, EXIT.usage, { error: 'usage' });
  try {
    await ctx.memory.dismiss(id);
  } catch (error) {
    return heldFailure(error, 'dismiss');
  }
  return ok(`Dismissed ${literal(id)}: it is no longer suggested. The turn it came from is kept.`, { dismissed: id });
}
