import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { CommandOutput } from './commands/command-output.js';
import { EXIT } from './commands/command-output.js';
import type { CliContext, OpenOptions } from './context.js';
import { type MemoryCall, type MemorySubcommand, exitCodesText, findMemorySubcommand, memorySubcommands } from './commands/memory-table.js';
import { literal, processOutput } from './output.js';
import { InputEncodingError, describeError } from '../shared/errors.js';

// The command line (started by main.ts from the bundle). Only commander and the output are loaded up
// front: every command imports what it needs, so `--version` and `memory list` never load the model SDK,
// the agent or the markdown renderer.

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const output = processOutput();

const COMMANDS = ['ask', 'memory', 'doctor', 'patch', 'apply', 'discard', 'undo', 'mcp', 'help', 'version'];

interface GlobalOptions {
  repo?: string;
  model?: string;
  json?: boolean;
  lines?: boolean;
}

const EXAMPLES: [string, string][] = [
  ['autopatch-j', 'the interactive session (a pipe is one request; --lines: one per line)'],
  [
    'autopatch-j "text"',
    'one request (= ask "text"); ask - or no text reads stdin; cmd | ask "prompt" adds the piped text; --json for scripts',
  ],
  ['autopatch-j patch|apply|discard|undo', 'the pending patch a repair request left; undo puts back the last applied one'],
  [
    `autopatch-j memory ${memorySubcommands('shell')
      .map((sub) => sub.name)
      .join('|')}`,
    'the /memory commands (memory SUB --help: arguments, --json shape, exit codes); --json for scripts',
  ],
  ['autopatch-j memory export --markdown [--out FILE] | --agents-md', 'the active preferences and decisions, for review in git'],
  ['autopatch-j memory import FILE', 'restore a RAW export into an absent or empty Memory (a new machine, a fresh clone)'],
  ['autopatch-j doctor [--json]', 'check the settings, the provider and the Memory database'],
  ['autopatch-j help | version', ''],
];

const EPILOGUE = [
  'In a session, type requests or slash commands (/help lists them). Data lives in <repo>/.autopatch-j/ (it ignores itself in git); ' +
    'conversations are stored there and sent to the model provider.',
  'Model provider (any OpenAI-compatible endpoint): AUTOPATCH_LLM_API_KEY, AUTOPATCH_LLM_BASE_URL (default https://api.deepseek.com), ' +
    'AUTOPATCH_LLM_MODEL (default deepseek-chat), AUTOPATCH_LLM_REASONING_EFFORT, AUTOPATCH_LLM_EXTRA_BODY (JSON object), ' +
    'AUTOPATCH_LLM_TIMEOUT_MS (default 60000), AUTOPATCH_LLM_SHORT_EXTRA_BODY, AUTOPATCH_LLM_MEMORY_MODEL, ' +
    'AUTOPATCH_DEBUG=true for RAW diagnostics, NO_COLOR=1 for no colour.',
  'Exit codes: 0 success, 1 failure, 2 usage error or invalid setting, 3 Memory degraded.',
];

/**
 * The help epilogue, wrapped to the terminal. The text is ASCII, so plain lengths are display widths and
 * `--help` needs no width library.
 */
function helpEpilogue(width: number): string {
  const wrap = (text: string, room: number): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      if (line && line.length + 1 + word.length > room) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    return line ? [...lines, line] : lines;
  };
  const column = Math.min(32, Math.floor(width * 0.4));
  const out = ['', 'Examples:'];
  for (const [command, what] of EXAMPLES) {
    const room = Math.max(20, width - column - 4);
    const described = wrap(what, room);
    if (command.length > column) {
      out.push(...wrap(command.replace(/\|/g, '| ').replace(/\| $/, '|'), width - 2).map((l) => `  ${l.replace(/\| /g, '|')}`));
      out.push(...described.map((l) => `  ${' '.repeat(column)}  ${l}`));
    } else {
      out.push(
        `  ${command.padEnd(column)}  ${described[0] ?? ''}`.trimEnd(),
        ...described.slice(1).map((l) => `  ${' '.repeat(column)}  ${l}`),
      );
    }
  }
  for (const paragraph of EPILOGUE) out.push('', ...wrap(paragraph, width));
  return out.join('\n');
}

function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/** Opens the project, runs `work`, closes Memory (with the exit pass when asked), returns the exit code. */
async function withContext(
  open: Omit<OpenOptions, 'output'>,
  work: (ctx: CliContext) => Promise<number>,
  options: { exitPass: boolean },
): Promise<number> {
  const { StartupError, openContext } = await import('./context.js');
  let ctx: CliContext;
  try {
    ctx = await openContext({ ...open, output });
  } catch (error) {
    if (error instanceof StartupError) {
      output.err(`autopatch-j: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
  let code: number = EXIT.failure;
  try {
    code = await work(ctx);
  } finally {
    // Leaving never throws to main: a failure here is reported and makes the exit code 1.
    try {
      if (options.exitPass) {
        const { exitPass } = await import('./exit-pass.js');
        if (!(await exitPass(ctx)).ok) code = EXIT.failure;
      } else {
        await ctx.memory.close();
      }
    } catch (error) {
      output.err(`autopatch-j: ${describeError(error)}\n`);
      code = EXIT.failure;
    }
  }
  return code;
}

async function print(result: CommandOutput, json: boolean): Promise<number> {
  if (json) {
    const { jsonText } = await import('./json.js');
    output.out(jsonText(result.json ?? { message: result.text }));
  } else if ((result.channel ?? (result.exitCode === EXIT.ok ? 'out' : 'err')) === 'out')
    (result.rich ? output.outRich : output.out)(`${result.text}\n`);
  else (result.rich ? output.errRich : output.err)(`${result.text}\n`);
  return result.exitCode;
}

/** A piped input that has not ended after this long gets one line saying what the request waits for. */
const SLOW_PIPE_MS = 2000;

/**
 * `ask` and `autopatch-j "text"`: one request; the exit pass ends it. Piped input is always read: alone it is
 * the request (`ask`, `ask -`); with a prompt (`cmd | ask "prompt"`, `ask - "prompt"`) the request is the
 * prompt, then the piped text as a fenced block.
 */
async function ask(words: string[], opts: GlobalOptions): Promise<number> {
  const prompt = words.filter((word) => word !== '-').join(' ');
  let text = prompt;
  if (!process.stdin.isTTY) {
    const { readAllStdin, withPipedText } = await import('./stdin.js');
    let piped: string;
    try {
      piped = await readAllStdin(process.stdin, {
        afterMs: SLOW_PIPE_MS,
        onSlow: () => output.err('autopatch-j ask: waiting for the piped input to end (< /dev/null asks without it)\n'),
      });
    } catch (error) {
      if (!(error instanceof InputEncodingError)) throw error;
      output.err(`autopatch-j ask: ${error.message}\n`);
      return EXIT.usage;
    }
    text = withPipedText(prompt, piped);
  } else if (prompt.trim().length === 0 || words.includes('-')) {
    output.err('autopatch-j ask: give the request as text, or pipe it in (autopatch-j ask - < request.txt)\n');
    return EXIT.usage;
  }
  if (text.trim().length === 0) {
    output.err('autopatch-j ask: the request is empty\n');
    return EXIT.usage;
  }
  return withContext(
    { repo: opts.repo, ...(opts.model ? { model: opts.model } : {}) },
    async (ctx) => {
      const [{ runRequest }, { exitPass }, { MemoryNotices, printNotices }] = await Promise.all([
        import('./request.js'),
        import('./exit-pass.js'),
        import('./notices.js'),
      ]);
      const notices = new MemoryNotices(ctx.memory);
      if (ctx.memory.health().health === 'healthy') ctx.memory.start();
      const controller = new AbortController();
      // `| head`: a closed stdout ends the request quietly; the turn is failed, the exit code stays 0.
      output.onClosed(() => controller.abort());
      const onInterrupt = (): void => controller.abort();
      process.once('SIGINT', onInterrupt);
      let outcome: Awaited<ReturnType<typeof runRequest>>;
      try {
        outcome = await runRequest(ctx, text.trim(), { signal: controller.signal, commands: 'ask', json: opts.json === true });
      } finally {
        process.off('SIGINT', onInterrupt);
      }
      // M-11.2: what Memory did during the request and its exit pass, read before Memory closes.
      let changes: ReturnType<typeof notices.take> = [];
      const pass = await exitPass(ctx, { onDrained: () => (changes = notices.take()) });
      printNotices(output, changes, { enabled: ctx.config.memoryNotices && opts.json !== true, commands: 'shell' });
      const { askResult } = await import('./commands/ask-result.js');
      const result = askResult(ctx, outcome, pass, changes);
      // The answer was shown while it streamed; --json prints the whole result instead.
      if (opts.json) await print(result, true);
      if (output.closed) return EXIT.ok;
      return result.exitCode;
    },
    { exitPass: false },
  );
}

/**
 * What a request that looks like a command most likely meant, or null: a single word close to a command
 * (`memroy` → `memory`), or a memory subcommand without `memory` (`status`, `show m1a2b3c4`) → `memory …`.
 */
async function commandGuess(words: string[]): Promise<string | null> {
  const [first = '', second] = words;
  if (/\s/.test(first) || words.length > 2) return null;
  const name = first.toLowerCase();
  // `memory` subcommands people type without `memory` (`autopatch-j status`), from the command table.
  const MEMORY_COMMANDS = memorySubcommands('shell')
    .filter((sub) => !sub.args.some((a) => a.variadic))
    .map((sub) => sub.name);
  if (MEMORY_COMMANDS.includes(name)) {
    const takesId = findMemorySubcommand(name)!.args[0]?.completes !== undefined;
    if (second === undefined) return `memory ${name}`;
    return takesId && /^[\w-]{4,64}$/.test(second) ? `memory ${name} ${literal(second)}` : null;
  }
  if (second !== undefined) return null;
  const { closest } = await import('./commands/suggest.js');
  const guess = closest(name, [...COMMANDS, ...MEMORY_COMMANDS], name.length >= 6 ? 2 : 1);
  if (guess === null) return null;
  return MEMORY_COMMANDS.includes(guess) ? `memory ${guess}` : guess;
}

/**
 * `autopatch-j status --json`: an option the top level does not have, given to what looks like a command
 * typed without its `memory`. Suggests the command with the same options (commander said what was unknown).
 */
async function suggestWithOptions(args: string[]): Promise<void> {
  const words: string[] = [];
  const options: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    if (!args[i]!.startsWith('-')) words.push(args[i]!);
    else options.push(...(/^--(repo|model)$/.test(args[i]!) ? args.slice(i, (i += 1) + 1) : [args[i]!]));
  }
  const guess = words.length > 0 ? await commandGuess(words) : null;
  if (guess) output.err(`Did you mean 'autopatch-j ${[guess, ...options.map((o) => literal(o))].join(' ')}'?\n`);
}

/**
 * `autopatch-j memory SUB`: the table's subcommand in the project. One that never creates a Memory says so in
 * a project without one (its own answer and exit code); `beforeOpen` may refuse before anything exists.
 */
async function runMemoryCommand(sub: MemorySubcommand, call: MemoryCall, opts: GlobalOptions): Promise<number> {
  const json = opts.json === true;
  let prepared: { value: unknown; dispose?: () => void } | null = null;
  if (sub.beforeOpen) {
    const { StartupError, resolveRepo } = await import('./context.js');
    let root: string;
    try {
      root = resolveRepo(opts.repo);
    } catch (error) {
      if (!(error instanceof StartupError)) throw error;
      output.err(`autopatch-j: ${error.message}\n`);
      return error.exitCode;
    }
    const before = await sub.beforeOpen(root, call);
    if (before && 'exitCode' in before) return print(before, json);
    prepared = before;
  }
  const { NoMemoryYet } = await import('./context.js');
  try {
    return await withContext(
      { repo: opts.repo, readOnly: sub.withoutMemory !== null },
      async (ctx) => print(await sub.run(ctx, { ...call, ...(prepared ? { prepared: prepared.value } : {}) }), json),
      { exitPass: false },
    );
  } catch (error) {
    if (!(error instanceof NoMemoryYet) || sub.withoutMemory === null) throw error;
    const { exitCode, json: answer } = sub.withoutMemory;
    return print(
      { text: error.message, json: Array.isArray(answer) ? answer : { ...(answer as object), message: error.message }, exitCode },
      json,
    );
  } finally {
    prepared?.dispose?.();
  }
}

function program(): Command {
  const root = new Command('autopatch-j')
    .description('A coding agent whose ordinary conversations continue across restarts through a local, auditable Memory.')
    .version(version)
    .option('--repo <dir>', 'the project folder (default: the git top level of the current folder)')
    .option('--model <name>', 'the model for this run (overrides AUTOPATCH_LLM_MODEL)')
    .option('--lines', 'from a pipe: one request per line instead of the whole input as one request')
    .argument('[request...]', 'a request to ask once (the same as autopatch-j ask "…")')
    .helpCommand(false)
    .addHelpText('after', () => helpEpilogue(output.outTerminal ? output.columns() : 100))
    .exitOverride()
    .configureHelp({ minWidthToWrap: 20 })
    .configureOutput({
      writeOut: (s) => output.out(s),
      writeErr: (s) => output.err(s),
      getOutHelpWidth: () => (output.outTerminal ? output.columns() : 80),
      getErrHelpWidth: () => output.columns(),
    })
    .action(async (words: string[], _opts: GlobalOptions, cmd: Command) => {
      const opts = globals(cmd);
      if (words.length > 0) {
        const guess = await commandGuess(words);
        if (guess) {
          output.err(
            `autopatch-j: unknown command '${literal(words.join(' '))}'. Did you mean 'autopatch-j ${guess}'? ` +
              `(to ask it, quote more words: autopatch-j ask "${literal(words.join(' '))}")\n`,
          );
          process.exitCode = EXIT.usage;
          return;
        }
        process.exitCode = await ask(words, opts);
        return;
      }
      const { runSession } = await import('./session.js');
      process.exitCode = await withContext(
        { repo: opts.repo, ...(opts.model ? { model: opts.model } : {}) },
        (ctx) => runSession(ctx, { lines: opts.lines === true }),
        { exitPass: false },
      );
    });

  root
    .command('ask')
    .description(
      'one request, routed like an interactive line; the answer goes to stdout (- or no text: read stdin; ' +
        'with text, piped input follows it as a fenced block)',
    )
    .argument('[text...]', 'the request')
    .option('--repo <dir>', 'the project folder')
    .option('--model <name>', 'the model for this run')
    .option('--json', 'print {answer, intent, turnId, memoryJobs, …} instead of the answer')
    .action(async (words: string[], _opts: GlobalOptions, cmd: Command) => {
      process.exitCode = await ask(words, globals(cmd));
    });

  root
    .command('help')
    .description('show this help')
    .argument('[command]', 'a command')
    .action((name: string | undefined) => {
      const sub = name ? root.commands.find((c) => c.name() === name) : undefined;
      (sub ?? root).outputHelp();
    });

  root
    .command('version')
    .description('print the version')
    .action(() => output.out(`${version}\n`));

  root
    .command('doctor')
    .description('check the settings, reach the provider with one tiny request, check the Memory database')
    .option('--repo <dir>', 'the project folder')
    .option('--model <name>', 'the model to check')
    .option('--json', 'machine-readable output')
    .action(async (_opts: GlobalOptions, cmd: Command) => {
      const opts = globals(cmd);
      const { runDoctor } = await import('./commands/doctor.js');
      process.exitCode = await print(await runDoctor({ repo: opts.repo, model: opts.model, output }), opts.json === true);
    });

  const patchCommand = (name: 'patch' | 'apply' | 'discard' | 'undo', description: string): void => {
    root
      .command(name)
      .description(description)
      .option('--repo <dir>', 'the project folder')
      .option('--json', 'machine-readable output')
      .action(async (_opts: GlobalOptions, cmd: Command) => {
        const opts = globals(cmd);
        const { patchOutsideSession } = await import('./commands/patch-commands.js');
        const result = await patchOutsideSession(name, { repo: opts.repo, output });
        process.exitCode = await print(result, opts.json === true);
      });
  };
  patchCommand('patch', 'show the pending patch as a diff');
  patchCommand('apply', 'apply the pending patch (every edit must still match exactly once)');
  patchCommand('discard', 'drop the pending patch');
  patchCommand('undo', 'put back the files the last apply changed (refused if one changed since)');

  root
    .command('mcp')
    .description("serve this project's Memory to other agents over MCP (stdio)")
    .option('--repo <dir>', 'the project folder')
    .option('--allow-forget', 'offer the memory_forget tool')
    .action(async (opts: { repo?: string; allowForget?: boolean }, cmd: Command) => {
      // Loaded on demand: the MCP SDK is not needed by any other command.
      const { runMcpServer } = await import('../mcp/server.js');
      const repo = opts.repo ?? (cmd.optsWithGlobals() as { repo?: string }).repo;
      process.exitCode = await runMcpServer({ ...(repo !== undefined ? { repo } : {}), allowForget: opts.allowForget === true });
    });

  const memory = root.command('memory').description('the /memory commands without a session');
  // Every subcommand from the one command table (commands/memory-table.ts), as `/memory …` has them.
  for (const sub of memorySubcommands('shell')) {
    const cmd = memory
      .command(sub.name)
      .description(sub.summary)
      .option('--repo <dir>', 'the project folder')
      .option('--json', `machine-readable output: ${sub.json}`);
    for (const arg of sub.args) {
      const name = `${arg.name}${arg.variadic ? '...' : ''}`;
      cmd.argument(arg.required ? `<${name}>` : `[${name}]`, arg.description);
    }
    for (const option of sub.options) cmd.option(option.value ? `${option.flag} <${option.value}>` : option.flag, option.description);
    cmd.addHelpText('after', `\nExit codes: ${exitCodesText(sub)}`);
    cmd.action(async (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      const opts = command.optsWithGlobals() as GlobalOptions & Record<string, string | boolean | undefined>;
      const args = params
        .slice(0, sub.args.length)
        .flatMap((value): string[] => (Array.isArray(value) ? [value.join(' ')] : typeof value === 'string' ? [value] : []));
      const options = new Map<string, string | true>();
      for (const option of sub.options) {
        const value = opts[option.flag.slice(2).replace(/-(\w)/gu, (_m, c: string) => c.toUpperCase())];
        if (value !== undefined && value !== false) options.set(option.flag, value === true ? true : String(value));
      }
      process.exitCode = await runMemoryCommand(sub, { args, options, surface: 'shell' }, opts);
    });
  }
  memory.showSuggestionAfterError(true);
  return root;
}

export async function main(): Promise<void> {
  try {
    await program().parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with 0; help shown because a subcommand is missing, or any parse error, is a usage error.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      if (error.code === 'commander.unknownOption') await suggestWithOptions(process.argv.slice(2));
      return;
    }
    if (output.closed) return;
    output.err(`autopatch-j: ${describeError(error)}\n`);
    process.exitCode = EXIT.failure;
  }
}
