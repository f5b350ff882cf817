#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { CommandOutput } from './commands/command-output.js';
import { EXIT } from './commands/command-output.js';
import { memoryClear, memoryExport, memoryForget, memoryList, memoryRefused, memoryRetry, memoryShow, memoryStatus } from './commands/memory-commands.js';
import { type CliContext, StartupError, openContext } from './context.js';
import { exitPass } from './exit-pass.js';
import { processOutput } from './output.js';
import { safeJson } from './render/safe-text.js';
import { describeError } from '../shared/errors.js';
import { runRequest } from './request.js';
import { runSession } from './session.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const output = processOutput();

/** Opens the project, runs `work`, closes Memory (with the exit pass when asked), returns the exit code. */
async function withContext(repo: string | undefined, work: (ctx: CliContext) => Promise<number>, options: { exitPass: boolean }): Promise<number> {
  let ctx: CliContext;
  try {
    ctx = openContext({ repo, output });
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
        if (!(await exitPass(ctx))) code = EXIT.failure;
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

function print(result: CommandOutput, json: boolean): number {
  if (json) output.out(`${safeJson(result.json ?? { message: result.text })}\n`);
  else if (result.exitCode === EXIT.ok) output.out(`${result.text}\n`);
  else output.err(`${result.text}\n`);
  return result.exitCode;
}

function program(): Command {
  const root = new Command('autopatch-j')
    .description('A coding agent whose ordinary conversations continue across restarts through a local, auditable Memory.')
    .version(version)
    .option('--repo <dir>', 'the project folder (default: the current folder)')
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `
In a session, type requests or slash commands (/help lists them). Data lives in <repo>/.autopatch-j/.

Model provider (any OpenAI-compatible endpoint):
  AUTOPATCH_LLM_API_KEY, AUTOPATCH_LLM_BASE_URL (default https://api.deepseek.com), AUTOPATCH_LLM_MODEL
  (default deepseek-chat), AUTOPATCH_LLM_REASONING_EFFORT, AUTOPATCH_LLM_EXTRA_BODY (JSON object),
  AUTOPATCH_LLM_TIMEOUT_MS (default 60000), AUTOPATCH_DEBUG=true for RAW diagnostics.

Exit codes: 0 success, 1 failure, 2 usage error or invalid setting, 3 Memory degraded.`,
    )
    .exitOverride()
    .action(async (opts: { repo?: string }) => {
      process.exitCode = await withContext(opts.repo, (ctx) => runSession(ctx), { exitPass: false });
    });

  root
    .command('ask')
    .description('one request, routed like an interactive line; the answer goes to stdout')
    .argument('<text...>', 'the request')
    .option('--repo <dir>', 'the project folder')
    .action(async (words: string[], opts: { repo?: string }, cmd: Command) => {
      const repo = opts.repo ?? (cmd.optsWithGlobals() as { repo?: string }).repo;
      process.exitCode = await withContext(repo, (ctx) => {
        if (ctx.memory.status().health === 'healthy') ctx.memory.start();
        return runRequest(ctx, words.join(' '));
      }, { exitPass: true });
    });

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
  const memoryCommand = (name: string, description: string, run: (ctx: CliContext, arg: string | undefined, flags: { confirm?: boolean; all?: boolean }) => CommandOutput, argument?: string) => {
    const cmd = memory.command(name).description(description).option('--repo <dir>', 'the project folder').option('--json', 'machine-readable output');
    if (argument) cmd.argument(argument);
    if (name === 'clear') cmd.option('--confirm', 'really delete Memory');
    if (name === 'retry') cmd.option('--all', 'every failed job');
    cmd.action(async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const opts = command.optsWithGlobals() as { repo?: string; json?: boolean; confirm?: boolean; all?: boolean };
      const arg = argument ? (args[0] as string) : undefined;
      process.exitCode = await withContext(opts.repo, async (ctx) => print(run(ctx, arg, opts), opts.json === true), { exitPass: false });
    });
  };
  memoryCommand('status', 'health, background jobs and errors', (ctx) => memoryStatus(ctx));
  memoryCommand('list', 'the usable memories', (ctx) => memoryList(ctx));
  memoryCommand('show', 'one memory with its sources and revisions', (ctx, id) => memoryShow(ctx, id), '<id>');
  memoryCommand('forget', 'forget one memory (the RAW turns are kept)', (ctx, id) => memoryForget(ctx, id), '<id>');
  memoryCommand('clear', 'delete all Memory (needs --confirm)', (ctx, _id, flags) => memoryClear(ctx, flags.confirm === true));
  memoryCommand('export', 'write a RAW JSON snapshot under .autopatch-j/exports/', (ctx) => memoryExport(ctx));
  memoryCommand('refused', 'recent candidates that were not remembered, with quote and reason', (ctx) => memoryRefused(ctx));
  memoryCommand('retry', 'put failed background jobs back in the queue (one ID, or --all)', (ctx, id, flags) => memoryRetry(ctx, id, flags.all === true), '[id]');
  return root;
}

async function main(): Promise<void> {
  try {
    await program().parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with 0; help shown because a subcommand is missing, or any parse error, is a usage error.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    output.err(`autopatch-j: ${describeError(error)}\n`);
    process.exitCode = EXIT.failure;
  }
}

await main();
