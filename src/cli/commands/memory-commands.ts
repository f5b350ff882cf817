import { MemoryNotFoundError, MemorySchemaError, describeError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { literal } from '../output.js';
import { degradedHelp, renderDetail, renderList, renderRefused, renderStatus } from '../render/memory-views.js';
import { type CommandOutput, EXIT, type Surface, failure, invocation, ok } from './command-output.js';

/** `/memory status` — works while degraded (M-9.7). */
export function memoryStatus(ctx: CliContext): CommandOutput {
  const status = ctx.memory.status();
  return ok(renderStatus(status, { debug: ctx.config.debug, repoRoot: ctx.repoRoot }), status);
}

export function memoryList(ctx: CliContext): CommandOutput {
  return guarded(() => {
    const items = ctx.memory.list();
    return ok(renderList(items, ctx.output.outTerminal ? ctx.output.columns() : undefined), items);
  });
}

/** `/memory show ID` — works while degraded, for diagnosis. */
export function memoryShow(ctx: CliContext, id: string | undefined): CommandOutput {
  if (!id) return failure('usage: /memory show <memory-id>  (any unique prefix of 4+ characters)', EXIT.usage);
  return guarded(() => {
    const detail = ctx.memory.show(id);
    return ok(renderDetail(detail), detail);
  });
}

/** `/memory refused` — the recent candidates the checks refused, with quote and reason ("why didn't it remember?"). */
export function memoryRefused(ctx: CliContext): CommandOutput {
  return guarded(() => {
    const refused = ctx.memory.refused({ limit: 20 });
    return ok(
      renderRefused(refused),
      refused.map((r) => ({ ...r, at: new Date(r.at).toISOString() })),
    );
  });
}

export function memoryForget(ctx: CliContext, id: string | undefined): CommandOutput {
  if (!id) return failure('usage: /memory forget <memory-id>', EXIT.usage);
  return guarded(() => {
    const result = ctx.memory.forget(id);
    const summary = result.compactionsReset > 0 ? ' The running summary that mentioned it was emptied as well.' : '';
    return ok(
      `Forgot ${result.id} “${literal(result.title)}”: it no longer appears in search or in the context of requests, ` +
        `and its old evidence cannot rebuild it.${summary}\n` +
        'The RAW turns it came from are kept (memory export shows them); a new explicit statement can form a new memory.',
      result,
    );
  });
}

/** `/memory clear` explains; `/memory clear --confirm` clears (M-10.3). Works while degraded. */
export function memoryClear(ctx: CliContext, confirm: boolean, surface: Surface = 'session'): CommandOutput {
  if (!confirm) {
    const s = ctx.memory.status();
    const turns = s.turns.completed + s.turns.failed + s.turns.interrupted + s.turns.open;
    const items = s.items.user_preference + s.items.project_decision + s.items.discussion_context;
    const jobs = s.jobs.pending + s.jobs.leased + s.jobs.retryWait + s.jobs.failed + s.jobs.succeeded + s.jobs.succeededNoOutput;
    const text = [
      'This would delete all of Memory for this project:',
      `  ${turns} RAW turn(s), ${items} usable memor${items === 1 ? 'y' : 'ies'} (and their history), ` +
        `${jobs} background job(s), all threads.`,
      'and then start one empty thread. It keeps:',
      '  exports in .autopatch-j/exports/ and the CLI history.',
      `Nothing was deleted. To clear, run:  ${invocation('memory clear --confirm', surface)}` +
        (surface === 'session' ? '   (or: autopatch-j memory clear --confirm)' : ''),
    ].join('\n');
    return { text, json: { cleared: false, wouldDelete: { turns, items, jobs }, kept: ['exports', 'cli_history'] }, exitCode: EXIT.usage };
  }
  try {
    const result = ctx.memory.clear();
    return ok(
      `Memory cleared: generation ${result.generation}, new thread ${result.threadId}. Exports and CLI history are kept.${
        result.movedAside
          ? `\nThe damaged database was not deleted: it was moved to ${result.movedAside} (with its -wal/-shm files, if any).`
          : ''
      }`,
      result,
    );
  } catch (error) {
    return failure(`clear failed: ${literal(describeError(error))}`);
  }
}

export function memoryExport(ctx: CliContext): CommandOutput {
  try {
    const result = ctx.memory.export();
    if (result.rawBytesOnly) {
      return ok(`The database could not be read, so its raw bytes were saved (base64, with a SHA-256) to ${result.path}`, result);
    }
    return ok(
      `Exported ${result.turns} turn(s) and ${result.items} memory revision(s) to ${result.path}\n` +
        '(RAW, unredacted: it holds your conversation text.)',
      result,
    );
  } catch (error) {
    return failure(`export failed: ${literal(describeError(error))}`);
  }
}

/**
 * `/memory retry [ID|--all]` (M-9.4a): failed jobs back in the queue. Without an argument it lists the
 * failed jobs and how to retry them (exit 0: a listing, not a usage error).
 */
export function memoryRetry(ctx: CliContext, id: string | undefined, all: boolean, surface: Surface = 'session'): CommandOutput {
  if (id === undefined && !all) {
    return guarded(() => {
      const failed = ctx.memory.status().unresolved.failed;
      if (failed.length === 0) return ok('No failed jobs: nothing to retry.', { failed });
      const list = failed.map((f) => `  ${f.id}  ${f.kind}  ${f.attempts} attempt(s): ${literal(f.reason.slice(0, 120))}`);
      const how = `${invocation('memory retry', surface)} <job-id> puts one back in the queue, --all every one.`;
      return ok([`${failed.length} failed job(s):`, ...list, how].join('\n'), { failed });
    });
  }
  return guarded(() => {
    const result = ctx.memory.retry(all ? undefined : id);
    if (result.jobIds.length === 0) return ok('No failed jobs: nothing to retry.', result);
    return ok(
      `Put ${result.jobIds.length} failed job(s) back in the queue: ${result.jobIds.join(', ')}. ` +
        'They run with the next background pass (or at exit).',
      result,
    );
  });
}

function guarded(work: () => CommandOutput): CommandOutput {
  try {
    return work();
  } catch (error) {
    if (error instanceof MemorySchemaError)
      return failure(degradedHelp(error.reason), EXIT.degraded, { error: 'degraded', reason: error.reason });
    if (error instanceof MemoryNotFoundError)
      return failure(literal(error.message), EXIT.failure, { error: 'not_found', id: error.memoryId });
    return failure(literal(describeError(error)));
  }
}
