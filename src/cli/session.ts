import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { dataDir } from '../memory/bootstrap.js';
import { PROVIDER_SETUP_HINT } from '../config/config.js';
import { SLASH_COMMANDS, runSlash } from './commands/registry.js';
import type { CliContext } from './context.js';
import { exitPass } from './exit-pass.js';
import { historyProblem, loadHistory, saveHistory } from './history.js';
import { redactUrl } from '../shared/redact.js';
import { degradedHelp } from './render/memory-views.js';
import { runRequest } from './request.js';

const HISTORY_LINES = 1000;

/**
 * The interactive session: a readline prompt with persistent history and completion on a terminal, or
 * one input per line from a pipe. Ctrl-C cancels the request in flight; Ctrl-D or /exit leaves after the
 * Memory exit pass.
 */
export async function runSession(ctx: CliContext, input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<number> {
  const tty = input.isTTY === true && process.stdout.isTTY === true;
  const historyPath = join(dataDir(ctx.repoRoot), 'cli_history');
  const status = ctx.memory.status();
  if (tty) {
    ctx.output.err(`autopatch-j in ${ctx.repoRoot} — /help for commands, Ctrl-D to leave.\n`);
    ctx.output.err(ctx.provider ? `model: ${ctx.config.llm!.model} at ${redactUrl(ctx.config.llm!.baseUrl)}\n` : `${PROVIDER_SETUP_HINT}\n`);
    const problem = historyProblem(historyPath);
    if (problem !== null) ctx.output.err(`${problem}\n`);
  }
  if (status.health === 'degraded') ctx.output.err(`${degradedHelp(status.degradedReason ?? 'unknown')}\n`);
  else ctx.memory.start();

  const rl = createInterface({
    input,
    output: tty ? process.stdout : undefined,
    terminal: tty,
    history: tty ? loadHistory(historyPath, HISTORY_LINES) : [],
    historySize: HISTORY_LINES,
    removeHistoryDuplicates: true,
    completer: (line: string) => complete(line, ctx),
  } as Parameters<typeof createInterface>[0]);
  rl.setPrompt('autopatch-j> ');

  let inflight: AbortController | null = null;
  const onInterrupt = (): void => {
    if (inflight) {
      inflight.abort();
      return;
    }
    if (tty) {
      ctx.output.out('\n(Ctrl-D or /exit to leave)\n');
      rl.prompt();
    } else {
      rl.close();
    }
  };
  rl.on('SIGINT', onInterrupt);
  process.on('SIGINT', onInterrupt);

  let exitCode = 0;
  if (tty) rl.prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (line.length === 0) {
        if (tty) rl.prompt();
        continue;
      }
      if (tty) saveHistory(historyPath, raw);
      if (line.startsWith('/')) {
        const result = await runSlash(line, ctx);
        if (result === 'exit') break;
        const text = result.text;
        if (result.exitCode === 0) ctx.output.out(`${text}\n`);
        else ctx.output.err(`${text}\n`);
      } else {
        inflight = new AbortController();
        const code = await runRequest(ctx, line, inflight.signal);
        inflight = null;
        if (!tty && code !== 0) exitCode = code;
      }
      if (tty) rl.prompt();
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    rl.close();
  }
  if (tty) ctx.output.out('\n');
  await exitPass(ctx);
  return exitCode;
}

/** Completes slash commands, memory subcommands and memory ids. */
export function complete(line: string, ctx: CliContext): [string[], string] {
  if (!line.startsWith('/')) return [[], line];
  const parts = line.split(/\s+/);
  if (parts.length === 1) {
    const hits = SLASH_COMMANDS.map((c) => `/${c.name}`).filter((c) => c.startsWith(line));
    return [hits, line];
  }
  if (parts[0] === '/memory' && parts.length === 2) {
    const subs = SLASH_COMMANDS.find((c) => c.name === 'memory')!.subcommands!;
    return [subs.filter((s) => s.startsWith(parts[1]!)), parts[1]!];
  }
  if (parts[0] === '/memory' && (parts[1] === 'show' || parts[1] === 'forget') && parts.length === 3) {
    let ids: string[] = [];
    try {
      ids = ctx.memory.list().map((i) => i.id);
    } catch {
      ids = [];
    }
    return [ids.filter((id) => id.startsWith(parts[2]!)), parts[2]!];
  }
  if (parts[0] === '/memory' && parts[1] === 'clear' && parts.length === 3) return [['--confirm'].filter((s) => s.startsWith(parts[2]!)), parts[2]!];
  return [[], line];
}

