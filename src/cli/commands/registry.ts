import { describePatch } from '../../workspace/review-workspace.js';
import type { CliContext } from '../context.js';
import { literal } from '../output.js';
import { renderDrainWarnings } from '../render/memory-views.js';
import { type CommandOutput, EXIT, failure, ok } from './command-output.js';
import { memoryClear, memoryExport, memoryForget, memoryList, memoryRetry, memoryShow, memoryStatus } from './memory-commands.js';

/** A slash command: data the session dispatches to; actions return what to print. */
export interface SlashCommand {
  name: string;
  usage: string;
  description: string;
  subcommands?: string[];
  run(args: string[], ctx: CliContext): Promise<CommandOutput | 'exit'>;
}

const MEMORY_SUBCOMMANDS = ['status', 'list', 'show', 'forget', 'clear', 'export', 'retry'];

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'help',
    usage: '/help',
    description: 'show the commands',
    run: async () => ok(helpText()),
  },
  {
    name: 'new',
    usage: '/new',
    description: 'start a new conversation thread (preferences and decisions stay)',
    run: async (_args, ctx) => newThread(ctx),
  },
  {
    name: 'reset',
    usage: '/reset',
    description: 'clear the review workspace, audit results and caches (Memory stays)',
    run: async (_args, ctx) => {
      const result = ctx.workspace.reset();
      const items = ctx.memory.status().items;
      const count = items.user_preference + items.project_decision + items.discussion_context;
      return ok(
        [
          `Cleared the review workspace: ${result.patchDiscarded ? 'the pending patch, ' : ''}${result.findingsCleared} audit finding(s), the source index and request caches.`,
          `Memory is kept (${count} usable memor${count === 1 ? 'y' : 'ies'}), as are exports and the CLI history.`,
          'To clear Memory itself: /memory clear --confirm',
        ].join('\n'),
      );
    },
  },
  {
    name: 'memory',
    usage: '/memory status|list|show <id>|forget <id>|clear [--confirm]|export|retry [id|--all]',
    description: 'inspect, export, forget or clear what is remembered',
    subcommands: MEMORY_SUBCOMMANDS,
    run: async (args, ctx) => {
      const [sub, ...rest] = args;
      switch (sub ?? 'status') {
        case 'status':
          return memoryStatus(ctx);
        case 'list':
          return memoryList(ctx);
        case 'show':
          return memoryShow(ctx, rest[0]);
        case 'forget':
          return memoryForget(ctx, rest[0]);
        case 'clear':
          return memoryClear(ctx, rest.includes('--confirm'));
        case 'export':
          return memoryExport(ctx);
        case 'retry':
          return memoryRetry(ctx, rest.find((a) => !a.startsWith('--')), rest.includes('--all'));
        default: {
          const guess = closest(sub!, MEMORY_SUBCOMMANDS);
          return failure(`Unknown memory command '${literal(sub)}'.${guess ? ` Did you mean /memory ${guess}?` : ''} Usage: /memory ${MEMORY_SUBCOMMANDS.join('|')}`, EXIT.usage);
        }
      }
    },
  },
  {
    name: 'apply',
    usage: '/apply',
    description: 'apply the pending patch (only if every edit still matches exactly)',
    run: async (_args, ctx) => {
      const patch = ctx.workspace.pendingPatch;
      if (!patch) return failure('There is no pending patch.');
      const result = ctx.workspace.applyPatch();
      if (result.applied) return ok(`Applied patch #${patch.id} to ${result.files.length} file(s).`);
      return failure(`Patch #${patch.id} was not applied; nothing changed:\n- ${result.problems.join('\n- ')}`);
    },
  },
  {
    name: 'discard',
    usage: '/discard',
    description: 'drop the pending patch',
    run: async (_args, ctx) => (ctx.workspace.discardPatch() ? ok('Discarded the pending patch.') : failure('There is no pending patch.')),
  },
  {
    name: 'patch',
    usage: '/patch',
    description: 'show the pending patch',
    run: async (_args, ctx) => (ctx.workspace.pendingPatch ? ok(literal(describePatch(ctx.workspace.pendingPatch))) : ok('There is no pending patch.')),
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
  const status = ctx.memory.status();
  if (status.health !== 'healthy') return failure(`Cannot start a new thread: Memory is degraded (${status.degradedReason}). /memory status explains how to recover.`, EXIT.degraded);
  if (ctx.provider && status.jobs.pending > 0) ctx.output.err(`processing ${status.jobs.pending} memory job(s) of this thread…\n`);
  const patch = ctx.workspace.pendingPatch;
  ctx.workspace.reset();
  const result = await ctx.memory.newThread();
  const lines = [
    `Started a new thread (${result.threadId}).${patch ? ` The pending patch #${patch.id} was discarded.` : ''}`,
    'Kept: your preferences, project decisions, the old RAW turns, exports and the CLI history. The old discussion context is no longer used.',
    ...renderDrainWarnings(result.drain),
  ];
  return ok(lines.join('\n'), result);
}

export function helpText(): string {
  const width = Math.max(...SLASH_COMMANDS.map((c) => c.usage.length));
  return [
    'Type a question or request; it is routed to the right assistant. Slash commands:',
    ...SLASH_COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.description}`),
    '',
    'Ctrl-C cancels a running request; Ctrl-D leaves.',
  ].join('\n');
}

/** Parses and runs a slash line. Unknown commands are answered with the closest match. */
export async function runSlash(line: string, ctx: CliContext): Promise<CommandOutput | 'exit'> {
  const [head, ...args] = line.trim().slice(1).split(/\s+/);
  const name = (head ?? '').toLowerCase();
  const command = SLASH_COMMANDS.find((c) => c.name === name) ?? (name === 'quit' ? SLASH_COMMANDS.find((c) => c.name === 'exit') : undefined);
  if (!command) {
    const guess = closest(name, SLASH_COMMANDS.map((c) => c.name));
    return failure(`Unknown command /${literal(name)}.${guess ? ` Did you mean /${guess}?` : ''} /help lists the commands.`, EXIT.usage);
  }
  return command.run(args, ctx);
}

/** The closest name by edit distance, if it is close enough to be a plausible typo. */
export function closest(input: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = editDistance(input.toLowerCase(), name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor((best?.length ?? 0) / 2)) ? best : null;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
