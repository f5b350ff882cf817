import { MemoryImportError, MemoryNotFoundError, MemorySchemaError, describeError } from '../../shared/errors.js';
import type { CheckedExport } from '../../memory/lifecycle/import.js';
import type { CliContext } from '../context.js';
import { literal } from '../output.js';
import { degradedHelp, renderDetail, renderList, renderStatus } from '../render/memory-views.js';
import { renderRefused, renderSuggestions } from '../render/held-views.js';
import { type CommandOutput, EXIT, type Surface, exitCodeOf, failure, invocation, ok } from './command-output.js';
import { type BlockMerge, MEMORY_BLOCK, decisionEntries, mergeAgentsBlock, renderDecisionsMarkdown } from '../render/memory-markdown.js';
import { FileRefusedError, updateMarkedBlock, writeProjectFile } from '../../workspace/marked-block.js';
import { resolve } from 'node:path';

/** `/memory status` — works while degraded (M-9.7). */
export function memoryStatus(ctx: CliContext, surface: Surface = 'session'): CommandOutput {
  const status = ctx.memory.status();
  return ok(renderStatus(status, { debug: ctx.config.debug, repoRoot: ctx.repoRoot, surface }), status);
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
export function memoryRefused(ctx: CliContext, surface: Surface = 'session'): CommandOutput {
  return guarded(() => {
    const refused = ctx.memory.refused({ limit: 20 });
    return ok(renderRefused(refused, surface), refused.map(isoAt));
  });
}

/** `/memory suggestions` (M-5.7) — the candidates held for the user's decision, and how to keep or dismiss each. */
export function memorySuggestions(ctx: CliContext, surface: Surface = 'session'): CommandOutput {
  return guarded(() => {
    const suggestions = ctx.memory.suggestions({ limit: 50 });
    return ok(renderSuggestions(suggestions, surface), suggestions.map(isoAt));
  });
}

/** A listed entry as `--json` prints it: ISO-8601 time. */
function isoAt<T extends { at: number }>(entry: T): Omit<T, 'at'> & { at: string } {
  return { ...entry, at: new Date(entry.at).toISOString() };
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

/** `--markdown [--out FILE]` and `--agents-md`: the reviewable forms of `memory export`. */
export interface ExportOptions {
  markdown?: boolean;
  out?: string;
  agentsMd?: boolean;
}

export function memoryExport(ctx: CliContext, options: ExportOptions = {}): CommandOutput {
  if (options.out !== undefined && (options.out.length === 0 || !options.markdown))
    return failure('usage: memory export --markdown --out FILE', EXIT.usage);
  if (options.markdown && options.agentsMd)
    return failure('usage: memory export --markdown [--out FILE] | --agents-md (one of them)', EXIT.usage);
  if (options.markdown || options.agentsMd) return memoryExportMarkdown(ctx, options);
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

/** The active preferences and decisions with their quotes, as Markdown on stdout, in a file, or in AGENTS.md's block. */
function memoryExportMarkdown(ctx: CliContext, options: ExportOptions): CommandOutput {
  return guarded(() => {
    const entries = decisionEntries(ctx.memory);
    const decisions = entries.filter((e) => e.kind === 'project_decision').length;
    const counted = `${decisions} decision(s), ${entries.length - decisions} preference(s)`;
    try {
      if (options.agentsMd) {
        let merge: BlockMerge = { body: '', kept: 0, removed: 0 };
        const update = updateMarkedBlock(ctx.repoRoot, 'AGENTS.md', MEMORY_BLOCK, (current) => {
          merge = mergeAgentsBlock(current, entries, (id) => knowsMemory(ctx, id));
          return merge.body;
        });
        const others =
          (merge.kept > 0 ? ` ${merge.kept} entr${merge.kept === 1 ? 'y' : 'ies'} of teammates kept as they were.` : '') +
          (merge.removed > 0 ? ` ${merge.removed} forgotten or replaced entr${merge.removed === 1 ? 'y' : 'ies'} removed.` : '');
        const text = update.changed
          ? `${update.created ? 'Created' : 'Updated'} the autopatch-j block in ${update.path}: ${counted} of this Memory.${others} ` +
            'Review it and commit it like any change; text outside the block is untouched.'
          : `${update.path} already holds these ${entries.length} memories: nothing changed.`;
        return ok(text, { format: 'agents-md', ...update, entries, kept: merge.kept, removed: merge.removed });
      }
      const markdown = renderDecisionsMarkdown(entries);
      if (options.out === undefined) return ok(literal(markdown.trimEnd()), { format: 'markdown', path: null, markdown, entries });
      const update = writeProjectFile(ctx.repoRoot, resolve(process.cwd(), options.out), Buffer.from(markdown, 'utf8'));
      return ok(
        update.changed
          ? `Wrote ${counted} to ${update.path}.`
          : `${update.path} already holds these ${entries.length} memories: nothing changed.`,
        { format: 'markdown', ...update, entries },
      );
    } catch (error) {
      if (error instanceof FileRefusedError)
        return failure(`export failed: ${literal(error.message)}`, EXIT.failure, { error: 'refused', reason: error.message });
      throw error;
    }
  });
}

/** True when this Memory has (or had: forgotten, superseded) the memory of exactly this id. */
function knowsMemory(ctx: CliContext, id: string): boolean {
  try {
    return ctx.memory.show(id).id === id;
  } catch (error) {
    if (error instanceof MemoryNotFoundError) return false;
    throw error;
  }
}

/**
 * `memory import FILE` into a project without a Memory: the export is checked against the contract before
 * the Memory is created, so a refused file creates nothing. Returns what to print instead when it is refused.
 */
export async function checkImportFile(repoRoot: string, file: string): Promise<CheckedExport | CommandOutput> {
  const { MemoryManager } = await import('../../memory/manager.js');
  try {
    return await MemoryManager.checkExportFile({ repoRoot, file });
  } catch (error) {
    return importFailure(error);
  }
}

/** `memory import FILE`: the export (a path, or checked already) restored into this project's empty Memory. */
export async function memoryImport(ctx: CliContext, source: string | CheckedExport): Promise<CommandOutput> {
  try {
    const r = await ctx.memory.restore(source);
    return ok(
      [
        `Restored ${r.turns} turn(s), ${r.items} memory revision(s), ${r.candidates} candidate(s) with ${r.sources} quote(s), ` +
          `${r.jobs} job(s) and ${r.threads} thread(s) from ${literal(r.file)} (exported ${r.exportedAt}); generation ${r.generation}.`,
        ...(r.fromDegraded ? ['The export was taken from a degraded Memory; every row passed the checks.'] : []),
        'The export file is unchanged. memory list shows the memories; unfinished jobs run with the next request.',
      ].join('\n'),
      r,
    );
  } catch (error) {
    return importFailure(error);
  }
}

function importFailure(error: unknown): CommandOutput {
  if (error instanceof MemoryImportError) {
    return failure(`import refused: ${literal(error.reason)}. Nothing was changed.`, EXIT.failure, {
      error: 'refused',
      reason: error.reason,
    });
  }
  if (error instanceof MemorySchemaError) {
    return failure(
      `import refused: Memory is degraded (${literal(error.reason)}); import restores only into a healthy, empty Memory. ` +
        'Keep a copy (memory export), then memory clear --confirm, then import again. Nothing was changed.',
      EXIT.failure,
      { error: 'degraded', reason: error.reason },
    );
  }
  return failure(`import failed: ${literal(describeError(error))}`);
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
      return failure(degradedHelp(error.reason), exitCodeOf(error), { error: 'degraded', reason: error.reason });
    if (error instanceof MemoryNotFoundError)
      return failure(literal(error.message), exitCodeOf(error), { error: 'not_found', id: error.memoryId });
    return failure(literal(describeError(error)), exitCodeOf(error));
  }
}
