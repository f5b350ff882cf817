import type { CliContext } from '../context.js';
import { literal } from '../output.js';
import { reasonWords } from '../exit-pass.js';
import { renderDrainWarnings } from '../render/memory-views.js';
import { renderColumns, wrapText } from '../render/wrap.js';
import { type CommandOutput, EXIT, failure, ok } from './command-output.js';
import { applyPatch, discardPatch, showPatch, undoPatch } from './patch-commands.js';
import { closest } from './suggest.js';
import { whyCommand } from './why.js';
import { findMemorySubcommand, memorySubcommands, runMemorySlash, runRememberSlash, subcommandUsage } from './memory-table.js';

/** A slash command: data the session dispatches to; actions return what to print. */
export interface SlashCommand {
  name: string;
  usage: string;
  description: string;
  subcommands?: string[];
  /** `line`: the whole line as typed (a command whose argument is free text reads it from there). */
  run(args: string[], ctx: CliContext, line: string): Promise<CommandOutput | 'exit'>;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'help',
    usage: '/help',
    description: 'show the commands',
    run: async (_args, ctx) => ok(helpText(ctx.output.columns())),
  },
  {
    name: 'new',
    usage: '/new',
    description: 'start a new conversation thread (preferences and decisions stay)',
    run: async (_args, ctx) => newThread(ctx),
  },
  {
    name: 'reset',
    usage: '/reset [--patch]',
    description: 'clear audit results and caches; --patch drops the pending patch too (Memory stays)',
    run: async (args, ctx) => {
      const patch = ctx.workspace.pendingPatch;
      const result = ctx.workspace.reset({ keepPatch: !args.includes('--patch') });
      const items = ctx.memory.status().items;
      const count = items.user_preference + items.project_decision + items.discussion_context;
      return ok(
        [
          `Cleared the review workspace: ${result.patchDiscarded ? `the pending patch #${patch!.id} (discarded, not applied), ` : ''}` +
            `${result.findingsCleared} audit finding(s), the source index and request caches.`,
          ...(patch && !result.patchDiscarded ? [`The pending patch #${patch.id} is kept: /discard drops it (or /reset --patch).`] : []),
          `Memory is kept (${count} usable memor${count === 1 ? 'y' : 'ies'}), as are exports and the CLI history.`,
          'To clear Memory itself: /memory clear --confirm',
        ].join('\n'),
      );
    },
  },
  {
    name: 'memory',
    usage: `/memory ${memorySubcommands('session')
      .map((sub) => subcommandUsage(sub))
      .join('|')}`,
    description: 'inspect, export, forget or clear what is remembered; keep or dismiss what it holds for you; remember',
    subcommands: memorySubcommands('session').map((sub) => sub.name),
    run: async (_args, ctx, line) => runMemorySlash(line, ctx),
  },
  {
    name: 'remember',
    usage: `/${subcommandUsage(findMemorySubcommand('remember')!)}`,
    description: findMemorySubcommand('remember')!.summary,
    run: async (_args, ctx, line) => runRememberSlash(line, ctx),
  },
  {
    name: 'why',
    usage: '/why',
    description: 'the memories the last answer was given, searched and read',
    run: async (_args, ctx) => whyCommand(ctx),
  },
  {
    name: 'apply',
    usage: '/apply',
    description: 'apply the pending patch (only if every edit still matches exactly once)',
    run: async (_args, ctx) => applyPatch(ctx.workspace),
  },
  {
    name: 'undo',
    usage: '/undo',
    description: 'put back the files the last /apply changed (refused if one changed since)',
    run: async (_args, ctx) => undoPatch(ctx.workspace),
  },
  {
    name: 'discard',
    usage: '/discard',
    description: 'drop the pending patch',
    run: async (_args, ctx) => discardPatch(ctx.workspace),
  },
  {
    name: 'patch',
    usage: '/patch',
    description: 'show the pending patch as a diff',
    run: async (_args, ctx) => showPatch(ctx.workspace, ctx.output),
  },
  {
    name: 'exit',
    usage: '/exit',
    description: 'leave (pending memory jobs get one try first)',
    run: async () => 'exit',
  },
];

/** `/new` (M-3.4). */
async function newThread(ctx: CliContext): Promise<CommandOutput> {
  const health = ctx.memory.health();
  if (health.health === 'closed') return failure('Cannot start a new thread: Memory is closed.');
  if (health.health === 'degraded')
    return failure(
      `Cannot start a new thread: Memory is degraded (${health.degradedReason}). /memory status explains how to recover.`,
      EXIT.degraded,
    );
  // A provider that already timed out or was unreachable in this run is not waited on again.
  const held = ctx.llm?.trouble != null;
  const pending = ctx.memory.openJobs().pending;
  if (ctx.llm && !held && pending > 0) ctx.output.err(`processing ${pending} memory job(s) of this thread…\n`);
  const patch = ctx.workspace.pendingPatch;
  if (ctx.llm) ctx.llm.holdMemoryCalls = held;
  let result: Awaited<ReturnType<typeof ctx.memory.newThread>>;
  try {
    result = await ctx.memory.newThread();
  } finally {
    if (ctx.llm) ctx.llm.holdMemoryCalls = false;
  }
  // Only once the new thread exists: a /new that fails leaves the pending patch and workspace as they were.
  ctx.workspace.reset();
  const unfinished = result.drain.warnings.length;
  const lines = [
    `Started a new thread (${result.threadId}).${patch ? ` The pending patch #${patch.id} was discarded.` : ''}`,
    'Kept: your preferences, project decisions, the old RAW turns, exports and the CLI history. ' +
      'The old discussion context is no longer used.',
    ...(unfinished > 0
      ? [
          `${unfinished} memory job(s) of the old thread stay queued (` +
            `${held ? 'the provider did not answer earlier, not waiting again' : reasonWords(result.drain.warnings[0]!.message)}` +
            ') — /memory status explains.',
        ]
      : []),
    ...(ctx.config.debug ? renderDrainWarnings(result.drain) : []),
  ];
  return ok(lines.join('\n'), result);
}

export function helpText(columns = 80): string {
  const rows = SLASH_COMMANDS.map((c) => [c.usage, c.description]);
  return [
    wrapText(
      'Type a question or request; it is routed to the right assistant. ' +
        'A pasted block, or lines ended with \\ (or Alt+Enter), is one request; @path attaches a file (Tab completes it). ' +
        'Slash commands:',
      columns,
    ),
    renderColumns(rows, columns, '  '),
    '',
    wrapText('Ctrl-C or Esc cancels a running request; at the prompt Ctrl-C clears the line, twice leaves; Ctrl-D leaves.', columns),
  ].join('\n');
}

/** Names people bring from other tools, and what they most likely want here. */
const SLASH_HINTS: Record<string, string> = {
  clear: '/new (a new conversation) or /memory clear (delete Memory)',
  q: '/exit',
  bye: '/exit',
  h: '/help',
  '?': '/help',
  commands: '/help',
  diff: '/patch',
  forget: '/memory forget <id>',
  status: '/memory status',
  export: '/memory export',
};

/** Parses and runs a slash line. Unknown commands are answered with the closest match. */
export async function runSlash(line: string, ctx: CliContext): Promise<CommandOutput | 'exit'> {
  const [head, ...args] = line.trim().slice(1).split(/\s+/);
  const name = (head ?? '').toLowerCase();
  const command =
    SLASH_COMMANDS.find((c) => c.name === name) ?? (name === 'quit' ? SLASH_COMMANDS.find((c) => c.name === 'exit') : undefined);
  if (!command) {
    const guess =
      SLASH_HINTS[name] !== undefined ? name : closest(name, [...SLASH_COMMANDS.map((c) => c.name), ...Object.keys(SLASH_HINTS)]);
    const hint = guess === null ? null : (SLASH_HINTS[guess] ?? `/${guess}`);
    return failure(`Unknown command /${literal(name)}.${hint ? ` Did you mean ${hint}?` : ''} /help lists the commands.`, EXIT.usage);
  }
  return command.run(args, ctx, line);
}

export { closest };
