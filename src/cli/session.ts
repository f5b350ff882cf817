import { createInterface } from 'node:readline';
import { cliHistoryPath } from '../memory/paths.js';
import { PROVIDER_SETUP_HINT } from '../config/config.js';
import { completionCandidates, findMemorySubcommand } from './commands/memory-table.js';
import { SLASH_COMMANDS, runSlash } from './commands/registry.js';
import type { CliContext } from './context.js';
import { exitPass } from './exit-pass.js';
import { historyProblem, loadHistory, saveHistory } from './history.js';
import { KeyGate } from './key-gate.js';
import { MemoryNotices, printNotices } from './notices.js';
import { literal } from './output.js';
import { completePath } from './path-completion.js';
import { REFERENCE_START } from '../shared/at-reference.js';
import { InputEncodingError } from '../shared/errors.js';
import { EXIT } from './commands/command-output.js';
import { redactUrl } from '../shared/redact.js';
import { loadProjectInstructions } from '../workspace/project-instructions.js';
import { instructionFilesText, skippedInstructionsText } from './render/instruction-files.js';
import { degradedHelp } from './render/memory-views.js';
import { styleFor } from './render/style.js';
import { runRequest } from './request.js';
import { readAllStdin } from './stdin.js';

const HISTORY_LINES = 1000;
const PROMPT = 'autopatch-j> ';
const CONTINUATION = '… ';
/** Two Ctrl-C on an empty prompt within this time leave the session. */
const DOUBLE_CTRL_C_MS = 2000;
/** Background jobs waiting to retry before the session says once that they keep failing (one failed job is enough). */
const FAILING_JOBS_NOTICE = 2;
/** While the prompt waits, how often the session looks for what the background Memory did (M-11.2). */
const NOTICE_POLL_MS = 1000;

export interface SessionOptions {
  /** From a pipe: one request per line instead of the whole input as one request. */
  lines?: boolean;
  input?: NodeJS.ReadStream;
}

/**
 * The interactive session. On a terminal: a prompt with persistent history and completion, multi-line
 * requests (a pasted block, or lines ended with `\` or Alt+Enter), Ctrl-C or Esc to cancel a request,
 * Ctrl-C at the prompt to clear the line (twice to leave), type-ahead held until the prompt returns.
 * From a pipe: the whole input is ONE request (a lone slash command runs as such) unless `lines` is set.
 * Memory's exit pass runs on the way out.
 */
export async function runSession(ctx: CliContext, options: SessionOptions = {}): Promise<number> {
  const input = options.input ?? process.stdin;
  const tty = input.isTTY === true && process.stdout.isTTY === true;
  const style = styleFor(ctx.output, 'err');
  const status = ctx.memory.health();
  if (tty) {
    const from = ctx.workingFolder ? ` (from ${ctx.workingFolder}/)` : '';
    ctx.output.err(`autopatch-j in ${ctx.repoRoot}${from} — /help for commands, Ctrl-D to leave.\n`);
    if (ctx.config.llm) {
      ctx.output.errRich(style.dim(`model: ${literal(ctx.config.llm.model)} at ${literal(redactUrl(ctx.config.llm.baseUrl))}\n`));
      ctx.output.errRich(
        style.dim(`Conversations are stored locally in .autopatch-j/ and sent to ${literal(new URL(ctx.config.llm.baseUrl).host)}.\n`),
      );
    } else ctx.output.err(`${PROVIDER_SETUP_HINT}\n`);
    const instructions = loadProjectInstructions(ctx.repoRoot, process.cwd());
    if (instructions.files.length > 0) ctx.output.errRich(style.dim(`project instructions: ${instructionFilesText(instructions)}\n`));
    for (const note of skippedInstructionsText(instructions)) ctx.output.errRich(style.dim(`skipped ${note}\n`));
    const problem = historyProblem(historyPathOf(ctx));
    if (problem !== null) ctx.output.err(`${problem}\n`);
  }
  if (status.health === 'degraded') ctx.output.err(`${degradedHelp(status.degradedReason ?? 'unknown')}\n`);
  else ctx.memory.start();
  const notices = new MemoryNotices(ctx.memory);
  ctx.session = { notices, lastAnswer: null };

  const exitCode = tty ? await terminalSession(ctx, input) : await pipedSession(ctx, input, options.lines === true);
  let last: ReturnType<MemoryNotices['take']> = [];
  await exitPass(ctx, { onDrained: () => (last = notices.take()) });
  // After the session: the commands are named as the shell runs them.
  printNotices(ctx.output, last, { enabled: ctx.config.memoryNotices, commands: 'shell' });
  return exitCode;
}

/** One input, slash command or request, from either mode. Returns the exit code it earned, or 'exit'. */
async function serve(ctx: CliContext, text: string, signal: AbortSignal): Promise<number | 'exit'> {
  if (text.startsWith('/') && !text.includes('\n')) {
    const result = await runSlash(text, ctx);
    if (result === 'exit') return 'exit';
    if ((result.channel ?? (result.exitCode === 0 ? 'out' : 'err')) === 'out')
      (result.rich ? ctx.output.outRich : ctx.output.out)(`${result.text}\n`);
    else (result.rich ? ctx.output.errRich : ctx.output.err)(`${result.text}\n`);
    return 0;
  }
  const outcome = await runRequest(ctx, text, { signal, commands: 'session' });
  if (outcome.result && ctx.session)
    ctx.session.lastAnswer = { turnId: outcome.result.turn?.id ?? null, memoriesUsed: outcome.result.memoriesUsed };
  return outcome.exitCode;
}

async function pipedSession(ctx: CliContext, input: NodeJS.ReadStream, lines: boolean): Promise<number> {
  let inflight: AbortController | null = null;
  let stop = false;
  const onInterrupt = (): void => {
    stop = true;
    inflight?.abort();
  };
  process.on('SIGINT', onInterrupt);
  ctx.output.onClosed(onInterrupt);
  let exitCode = 0;
  try {
    let piped: string;
    try {
      piped = await readAllStdin(input);
    } catch (error) {
      if (!(error instanceof InputEncodingError)) throw error;
      ctx.output.err(`autopatch-j: ${error.message}\n`);
      return EXIT.usage;
    }
    const inputs = lines ? piped.split('\n') : [piped];
    for (const raw of inputs) {
      if (stop) break;
      const text = raw.trim();
      if (text.length === 0) continue;
      inflight = new AbortController();
      const code = await serve(ctx, text, inflight.signal);
      inflight = null;
      if (code === 'exit') break;
      if (code !== 0 && !ctx.output.closed) exitCode = code;
    }
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  return exitCode;
}

async function terminalSession(ctx: CliContext, input: NodeJS.ReadStream): Promise<number> {
  const style = styleFor(ctx.output, 'err');
  const historyPath = historyPathOf(ctx);
  const gate = new KeyGate(input);
  const rl = createInterface({
    input: gate,
    output: process.stdout,
    terminal: true,
    history: loadHistory(historyPath, HISTORY_LINES),
    historySize: HISTORY_LINES,
    removeHistoryDuplicates: true,
    completer: (line: string) => complete(line, ctx),
  } as unknown as Parameters<typeof createInterface>[0]);
  const editor = rl as unknown as { line: string; cursor: number };
  rl.setPrompt(PROMPT);

  let pending: string[] = [];
  /** The lines of `pending` as readline got them (with the backslash that continued them): each is an entry of its history. */
  let pendingLines: string[] = [];
  let inflight: AbortController | null = null;
  let lastCtrlC = 0;
  let jobsNoticed = false;
  const queue: string[] = [];
  let draining = false;
  let closed = false;
  const closedPromise = new Promise<void>((resolve) =>
    rl.once('close', () => {
      closed = true;
      resolve();
    }),
  );

  const prompt = (): void => {
    rl.setPrompt(pending.length > 0 ? CONTINUATION : PROMPT);
    rl.prompt();
  };
  const notice = (changes: ReturnType<MemoryNotices['take']>): void =>
    printNotices(ctx.output, changes, { enabled: ctx.config.memoryNotices, commands: 'session' });
  // M-11.2: what the background Memory did while the prompt waits is printed above an empty prompt, which
  // is then drawn again; while a line is being typed it waits for the next prompt.
  const poll = setInterval(() => {
    if (draining || closed || pending.length > 0 || editor.line.length > 0) return;
    const changes = ctx.session!.notices.take();
    if (changes.length === 0 || !ctx.config.memoryNotices) return;
    ctx.output.control('\r\u001b[2K');
    notice(changes);
    rl.prompt(true);
  }, NOTICE_POLL_MS);
  poll.unref();

  gate.on('interrupt', () => {
    if (inflight) {
      inflight.abort();
      return;
    }
    if (gate.busy) return;
    const hadText = editor.line.length > 0 || pending.length > 0;
    ctx.output.out('^C\n');
    editor.line = '';
    editor.cursor = 0;
    pending = [];
    pendingLines = [];
    if (!hadText && Date.now() - lastCtrlC < DOUBLE_CTRL_C_MS) {
      rl.close();
      return;
    }
    if (!hadText) ctx.output.errRich(style.dim('(Ctrl-C again or Ctrl-D to leave)\n'));
    lastCtrlC = hadText ? 0 : Date.now();
    prompt();
  });
  gate.on('cancel', () => inflight?.abort());
  rl.on('SIGINT', () => gate.emit('interrupt'));
  const onSignal = (): void => {
    if (inflight) inflight.abort();
    else rl.close();
  };
  process.on('SIGINT', onSignal);

  rl.on('line', (line: string) => {
    lastCtrlC = 0;
    if (gate.continuing || (line.endsWith('\\') && !line.endsWith('\\\\'))) {
      pending.push(gate.continuing ? line : line.slice(0, -1));
      pendingLines.push(line);
      prompt();
      return;
    }
    const text = [...pending, line].join('\n');
    if (pending.length > 0) recallAsOne((rl as unknown as { history: string[] }).history, [...pendingLines, line], text);
    pending = [];
    pendingLines = [];
    if (text.trim().length === 0) {
      prompt();
      return;
    }
    saveHistory(historyPath, text);
    queue.push(text.trim());
    void drain();
  });

  // Requests run one at a time; keys typed meanwhile wait in the gate and replay at the next prompt.
  const drain = async (): Promise<void> => {
    if (draining) return;
    draining = true;
    gate.busy = true;
    try {
      while (queue.length > 0 && !closed) {
        const text = queue.shift()!;
        inflight = new AbortController();
        const code = await serve(ctx, text, inflight.signal);
        inflight = null;
        if (code === 'exit') {
          rl.close();
          return;
        }
        noticeFailingJobs();
      }
    } finally {
      draining = false;
      gate.busy = false;
    }
    if (closed) return;
    notice(ctx.session!.notices.take());
    prompt();
    gate.release();
  };

  const noticeFailingJobs = (): void => {
    if (jobsNoticed) return;
    try {
      const jobs = ctx.memory.openJobs();
      const stuck = jobs.retryWait + jobs.failed;
      if (jobs.retryWait < FAILING_JOBS_NOTICE && jobs.failed === 0) return;
      jobsNoticed = true;
      ctx.output.errRich(style.dim(`memory: background jobs keep failing (${stuck} waiting or failed) — /memory status explains\n`));
    } catch {
      // Status is a courtesy here; a busy or degraded database is reported by the commands themselves.
    }
  };

  gate.start();
  prompt();
  // The prompt is up: load the agent and the model SDK now, so the first request does not wait for them.
  setTimeout(() => void ctx.agent(), 50).unref();
  await closedPromise;
  clearInterval(poll);
  process.off('SIGINT', onSignal);
  gate.stop();
  ctx.output.out('\n');
  return 0;
}

/**
 * readline keeps each line of a multi-line request as an entry of its own; the request is kept as ONE entry
 * instead (newest first), so Up recalls it whole, line breaks included.
 */
function recallAsOne(history: string[], lines: string[], text: string): void {
  for (const line of [...lines].reverse()) if (history[0] === line) history.shift();
  const older = history.indexOf(text);
  if (older >= 0) history.splice(older, 1);
  if (text.trim().length > 0) history.unshift(text);
}

function historyPathOf(ctx: CliContext): string {
  return cliHistoryPath(ctx.repoRoot);
}

/** Completes slash commands, memory subcommands, memory ids and `@path` words; a complete word gets its trailing space. */
/** The `@path` being typed at the end of the line (an `@` where a reference may start, see REFERENCE_START). */
const AT_PATH = new RegExp(`(${REFERENCE_START}[^\\s]*)$`, 'u');

export function complete(line: string, ctx: CliContext): [string[], string] {
  const path = AT_PATH.exec(line)?.[1];
  if (path !== undefined) return [completePath(path, ctx.repoRoot, ctx.workingFolder), path];
  const [hits, word] = completions(line, ctx);
  return [hits.map((h) => `${h} `), word];
}

function completions(line: string, ctx: CliContext): [string[], string] {
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
  // The rest from the one command table: options, then each argument's completion.
  const sub =
    parts[0] === '/memory' ? findMemorySubcommand(parts[1]!) : parts[0] === '/remember' ? findMemorySubcommand('remember') : undefined;
  if (!sub) return [[], line];
  const words = parts.slice(parts[0] === '/memory' ? 2 : 1);
  const word = words.at(-1)!;
  const before = words.slice(0, -1);
  const valued = new Set<string>(sub.options.filter((o) => o.value).map((o) => o.flag));
  const positional = before.filter((w, i) => !w.startsWith('--') && !valued.has(before[i - 1] ?? '')).length;
  const arg = sub.args[positional];
  if (word.startsWith('-') || (!arg?.completes && !valued.has(before.at(-1) ?? ''))) {
    const flags = sub.options.map((o): string => o.flag).filter((f) => f.startsWith(word) && !before.includes(f));
    return [flags, word];
  }
  if (!arg?.completes) return [[], line];
  return [completionCandidates(arg.completes, ctx).filter((id) => id.startsWith(word)), word];
}
