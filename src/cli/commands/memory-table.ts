import { existsSync } from 'node:fs';
import type { CliContext } from '../context.js';
import { literal } from '../output.js';
import { type CommandOutput, EXIT, type Surface, failure, invocation } from './command-output.js';
import { closest } from './suggest.js';
import { shortCandidateId } from '../../shared/ids.js';

// The commands load on first use: `autopatch-j --version` reads this table without loading any of them.
const commands = (): Promise<typeof import('./memory-commands.js')> => import('./memory-commands.js');
const held = (): Promise<typeof import('./held-commands.js')> => import('./held-commands.js');

/** What an argument completes to in a session (Tab). */
export type Completion = 'memory-id' | 'held-id' | 'failed-job';

export interface MemoryArgument {
  name: string;
  required: boolean;
  /** The rest of the line (free text). */
  variadic?: boolean;
  completes?: Completion;
  description: string;
}

export interface MemoryOption {
  flag: `--${string}`;
  /** The name of the value it takes (`--out <file>`), if any. */
  value?: string;
  description: string;
}

/** One call of a memory subcommand, the same from a session and from the shell. */
export interface MemoryCall {
  /** Positional arguments; a variadic argument is one string (the free text as typed). */
  args: string[];
  /** Options given, by flag: `true`, or the value. */
  options: ReadonlyMap<string, string | true>;
  /** The line as the user typed it (a session), recorded by the commands that are the user's own turn. */
  typed?: string;
  surface: Surface;
  /** What `beforeOpen` prepared (the shell's `import`). */
  prepared?: unknown;
}

/** What to answer in a project that has no Memory yet, for a subcommand that never creates one. */
export interface WithoutMemory {
  exitCode: number;
  json: unknown;
}

/**
 * One `memory` subcommand, defined once for `/memory …` and `autopatch-j memory …` (and `/remember`): its
 * arguments, options, help, completion, JSON shape and exit codes, and what it does.
 */
export interface MemorySubcommand {
  name: string;
  summary: string;
  args: readonly MemoryArgument[];
  options: readonly MemoryOption[];
  /** What `--json` prints on success. */
  json: string;
  /** The exit codes it can end with besides 0, with what each means here. */
  exits: readonly [number, string][];
  /** Null: it creates the Memory like a request does. Else: without a Memory it creates nothing and answers this. */
  withoutMemory: WithoutMemory | null;
  /** Where it runs (both by default). */
  surfaces?: readonly Surface[];
  /**
   * Shell only, before the project's Memory is opened (or created): a prepared value for `run`, or the answer
   * to print instead (a file refused before anything exists). `dispose` runs after the command.
   */
  beforeOpen?: (repoRoot: string, call: MemoryCall) => Promise<{ value: unknown; dispose?: () => void } | CommandOutput | null>;
  run(ctx: CliContext, call: MemoryCall): CommandOutput | Promise<CommandOutput>;
}

const NOT_FOUND: WithoutMemory = { exitCode: EXIT.failure, json: { memory: null } };
const NOTHING: WithoutMemory = { exitCode: EXIT.ok, json: { memory: null } };
const EMPTY_LIST: WithoutMemory = { exitCode: EXIT.ok, json: [] };
const DEGRADED: [number, string] = [EXIT.degraded, 'Memory is degraded'];
const USAGE: [number, string] = [EXIT.usage, 'usage error'];

const ID: MemoryArgument = {
  name: 'id',
  required: true,
  completes: 'memory-id',
  description: 'a memory id or a unique prefix (4+ characters)',
};
const HELD: MemoryArgument = {
  name: 'id',
  required: true,
  completes: 'held-id',
  description: 'a suggestion or refusal id (short name or full id)',
};

export const MEMORY_TABLE: readonly MemorySubcommand[] = [
  {
    name: 'status',
    summary: 'health, background jobs, refused candidates and errors (works while degraded)',
    args: [],
    options: [],
    json: 'MemoryStatus { health, degradedReason, jobs, items, filteredCandidates, unresolved, lastError, … }',
    exits: [],
    withoutMemory: NOTHING,
    run: async (ctx, call) => (await commands()).memoryStatus(ctx, call.surface),
  },
  {
    name: 'list',
    summary: 'the usable memories',
    args: [],
    options: [],
    json: 'MemoryItemSummary[] { id, kind, status, title, synopsis, threadId, revision, updatedAt }',
    exits: [DEGRADED],
    withoutMemory: EMPTY_LIST,
    run: async (ctx) => (await commands()).memoryList(ctx),
  },
  {
    name: 'show',
    summary: 'one memory with its revisions and the quoted turns it comes from (works while degraded)',
    args: [ID],
    options: [],
    json: 'MemoryDetail { id, kind, status, title, content, revisions, sources: { turnId, role, quote, excerpt }[], … }',
    exits: [[EXIT.failure, 'no memory has that id'], USAGE],
    withoutMemory: NOT_FOUND,
    run: async (ctx, call) => (await commands()).memoryShow(ctx, call.args[0]),
  },
  {
    name: 'forget',
    summary: 'forget one memory: it leaves search and routing at once; the RAW turns are kept',
    args: [ID],
    options: [],
    json: 'ForgetResult { id, title, kind, suppressedCandidates, compactionsReset, rawTurnsKept }',
    exits: [[EXIT.failure, 'no active memory has that id'], USAGE, DEGRADED],
    withoutMemory: NOT_FOUND,
    run: async (ctx, call) => (await commands()).memoryForget(ctx, call.args[0]),
  },
  {
    name: 'clear',
    summary: 'delete all of Memory and start one empty thread (explains without --confirm)',
    args: [],
    options: [{ flag: '--confirm', description: 'really delete Memory' }],
    json: 'ClearResult { generation, threadId, recreated, createdAt, movedAside }; without --confirm { cleared: false, wouldDelete }',
    exits: [
      [EXIT.usage, 'without --confirm: nothing was deleted'],
      [EXIT.failure, 'the clear failed'],
    ],
    withoutMemory: NOTHING,
    run: async (ctx, call) => (await commands()).memoryClear(ctx, call.options.has('--confirm'), call.surface),
  },
  {
    name: 'export',
    summary: 'a RAW JSON snapshot under .autopatch-j/exports/, or the reviewable decisions (--markdown, --agents-md)',
    args: [],
    options: [
      { flag: '--markdown', description: 'the active preferences and decisions with their quotes as Markdown (stdout, or --out)' },
      { flag: '--out', value: 'file', description: 'with --markdown: write the Markdown to this file' },
      { flag: '--agents-md', description: "update the autopatch-j block in the project's AGENTS.md (text outside it is untouched)" },
    ],
    json: 'ExportResult { path, turns, items, rawBytesOnly }; --markdown/--agents-md { format, path, entries, … }',
    exits: [[EXIT.failure, 'the export failed'], USAGE],
    withoutMemory: NOTHING,
    run: async (ctx, call) => {
      const out = call.options.get('--out');
      return (await commands()).memoryExport(ctx, {
        markdown: call.options.has('--markdown'),
        agentsMd: call.options.has('--agents-md'),
        ...(out !== undefined ? { out: out === true ? '' : out } : {}),
      });
    },
  },
  {
    name: 'import',
    summary: 'restore a RAW export into this project when its Memory is absent or empty',
    args: [{ name: 'file', required: true, description: 'the export file (it is only read)' }],
    options: [],
    json: 'RestoreResult { file, exportedAt, turns, items, candidates, sources, jobs, threads, generation, fromDegraded }',
    exits: [[EXIT.failure, 'the export was refused; nothing was changed']],
    withoutMemory: null,
    surfaces: ['shell'],
    beforeOpen: async (repoRoot, call) => {
      const [{ memoryDbPath }, { checkImportFile }] = await Promise.all([import('../../memory/paths.js'), commands()]);
      // An existing Memory is checked for emptiness by the restore; an absent one is created only for a valid export.
      if (existsSync(memoryDbPath(repoRoot))) return null;
      const checked = await checkImportFile(repoRoot, call.args[0]!);
      if ('exitCode' in checked) return checked;
      return { value: checked, dispose: () => checked.dispose() };
    },
    run: async (ctx, call) => {
      const { memoryImport } = await commands();
      return memoryImport(ctx, (call.prepared as Parameters<typeof memoryImport>[1] | undefined) ?? call.args[0]!);
    },
  },
  {
    name: 'refused',
    summary: 'the recent candidates that were not remembered, with quote and reason',
    args: [],
    options: [],
    json: 'RefusedCandidate[] { candidateId, kind, title, quote, reason, turnId, at, keepable }',
    exits: [DEGRADED],
    withoutMemory: EMPTY_LIST,
    run: async (ctx, call) => (await commands()).memoryRefused(ctx, call.surface),
  },
  {
    name: 'suggestions',
    summary: 'the candidates held for your decision, with quote and reason, and how to keep or dismiss each',
    args: [],
    options: [],
    json: 'SuggestedCandidate[] { candidateId, kind, title, content, quote, reason, turnId, at }',
    exits: [DEGRADED],
    withoutMemory: EMPTY_LIST,
    run: async (ctx, call) => (await commands()).memorySuggestions(ctx, call.surface),
  },
  {
    name: 'retry',
    summary: 'put failed background jobs back in the queue (without an id: lists them)',
    args: [{ name: 'id', required: false, completes: 'failed-job', description: 'a failed job id (or a prefix of 4+ characters)' }],
    options: [{ flag: '--all', description: 'every failed job' }],
    json: 'RetryResult { jobIds }; without an id { failed: FailedJob[] }',
    exits: [[EXIT.failure, 'no failed job has that id'], DEGRADED],
    withoutMemory: NOT_FOUND,
    run: async (ctx, call) => (await commands()).memoryRetry(ctx, call.args[0], call.options.has('--all'), call.surface),
  },
  {
    name: 'keep',
    summary: 'make a candidate held for you (or refused for how it read) a memory; recorded as your turn',
    args: [HELD],
    options: [],
    json: 'KeepResult { candidateId, turnId, kind, outcome, memory, reason, alreadyKept, changes }',
    exits: [[EXIT.failure, 'unknown id, or a provenance refusal (nothing was changed)'], USAGE, DEGRADED],
    withoutMemory: NOT_FOUND,
    run: async (ctx, call) =>
      (await held()).keepCommand(ctx, call.args[0], { ...(call.typed !== undefined ? { typed: call.typed } : {}), commands: call.surface }),
  },
  {
    name: 'dismiss',
    summary: 'drop a candidate held for you; the turn it came from stays',
    args: [HELD],
    options: [],
    json: '{ dismissed }',
    exits: [[EXIT.failure, 'unknown id, kept already, or a provenance refusal'], USAGE, DEGRADED],
    withoutMemory: NOT_FOUND,
    run: async (ctx, call) => (await held()).dismissCommand(ctx, call.args[0], call.surface),
  },
  {
    name: 'remember',
    summary: 'remember your words now, as a preference (--decision: a project decision); recorded as your turn',
    args: [{ name: 'text', required: true, variadic: true, description: 'your words, at most 2,000 characters' }],
    options: [{ flag: '--decision', description: 'a project decision instead of a preference' }],
    json: 'RememberResult { turnId, kind, outcome: remembered|queued|refused, memory, reason, changes }',
    exits: [[EXIT.failure, 'the checks refused it'], [EXIT.usage, 'an empty or oversized text'], DEGRADED],
    withoutMemory: null,
    run: async (ctx, call) =>
      (await import('./remember-command.js')).rememberCommand(ctx, {
        text: call.args[0] ?? '',
        decision: call.options.has('--decision'),
        ...(call.typed !== undefined ? { typed: call.typed } : {}),
        commands: call.surface,
      }),
  },
];

/** What an argument of this kind completes to now; nothing when Memory cannot say (degraded, busy). */
export function completionCandidates(kind: Completion, ctx: CliContext): string[] {
  try {
    switch (kind) {
      case 'memory-id':
        return ctx.memory.list().map((i) => i.id);
      case 'failed-job':
        return ctx.memory.status().unresolved.failed.map((f) => f.id);
      case 'held-id':
        // The short names people type: every suggestion, and each refusal `keep` may overrule.
        return [...ctx.memory.suggestions({ limit: 50 }), ...ctx.memory.refused({ limit: 20 }).filter((r) => r.keepable)].map((c) =>
          shortCandidateId(c.candidateId),
        );
    }
  } catch {
    return [];
  }
}

/** The subcommands a surface offers, in table order. */
export function memorySubcommands(surface: Surface): MemorySubcommand[] {
  return MEMORY_TABLE.filter((s) => (s.surfaces ?? ['session', 'shell']).includes(surface));
}

export function findMemorySubcommand(name: string): MemorySubcommand | undefined {
  return MEMORY_TABLE.find((s) => s.name === name);
}

/** `show <id>`, `clear [--confirm]`, `export [--markdown] [--out <file>] …`: one subcommand's usage words. */
export function subcommandUsage(sub: MemorySubcommand): string {
  const args = sub.args.map((a) => {
    const name = `${a.name}${a.variadic ? '…' : ''}`;
    return a.required ? `<${name}>` : `[${name}]`;
  });
  const options = sub.options.map((o) => `[${o.flag}${o.value ? ` <${o.value}>` : ''}]`);
  return [sub.name, ...options, ...args].join(' ');
}

/** The exit codes of a subcommand, for its help. */
export function exitCodesText(sub: MemorySubcommand): string {
  return ['0 success', ...sub.exits.map(([code, what]) => `${code} ${what}`)].join(' · ');
}

/**
 * Reads the words after `/memory SUB` (or `/remember`) against the table: declared options anywhere (a free
 * text argument starts at the first word that is not one and takes the rest of the line as typed), the rest
 * positional. An unknown option, a missing value or a missing argument is a usage error.
 */
export function parseSessionCall(sub: MemorySubcommand, rest: string, typed: string): { call: MemoryCall } | { usage: CommandOutput } {
  const options = new Map<string, string | true>();
  const args: string[] = [];
  const usage = (why: string): { usage: CommandOutput } => ({
    usage: failure(`${why}. Usage: /memory ${subcommandUsage(sub)}`, EXIT.usage, { error: 'usage' }),
  });
  let left = rest.trimStart();
  const variadic = sub.args.find((a) => a.variadic);
  while (left.length > 0) {
    const word = /^\S+/u.exec(left)![0];
    const option = sub.options.find((o) => o.flag === word);
    if (option) {
      left = left.slice(word.length).trimStart();
      if (option.value) {
        const value = /^\S+/u.exec(left)?.[0];
        if (value === undefined) return usage(`${option.flag} needs a ${option.value}`);
        options.set(option.flag, value);
        left = left.slice(value.length).trimStart();
      } else options.set(option.flag, true);
      continue;
    }
    if (word.startsWith('--') && !(variadic && args.length > 0)) return usage(`Unknown option ${literal(word)}`);
    if (variadic && args.length === sub.args.indexOf(variadic)) {
      args.push(left.trimEnd());
      break;
    }
    args.push(word);
    left = left.slice(word.length).trimStart();
  }
  if (args.length > sub.args.length) return usage(`Too many arguments`);
  return { call: { args, options, typed, surface: 'session' } };
}

/** `/memory …` in a session: the subcommand from the table, or a usage error naming the closest one. */
export async function runMemorySlash(line: string, ctx: CliContext): Promise<CommandOutput> {
  const m = /^\s*\/\S+\s*(\S*)\s*([\s\S]*)$/u.exec(line)!;
  const name = (m[1] || 'status').toLowerCase();
  const sub = findMemorySubcommand(name);
  const names = memorySubcommands('session').map((s) => s.name);
  if (!sub) {
    const guess = closest(name, names);
    return failure(
      `Unknown memory command '${literal(name)}'.${guess ? ` Did you mean /memory ${guess}?` : ''} Usage: /memory ${names.join('|')}`,
      EXIT.usage,
    );
  }
  if (!memorySubcommands('session').includes(sub)) {
    return failure(`memory ${sub.name} runs from the shell: ${invocation(`memory ${subcommandUsage(sub)}`, 'shell')}`, EXIT.usage);
  }
  const parsed = parseSessionCall(sub, m[2] ?? '', line.trim());
  if ('usage' in parsed) return parsed.usage;
  return sub.run(ctx, parsed.call);
}

/** `/remember …`: the table's `remember`, with the line as typed (its RAW text). */
export async function runRememberSlash(line: string, ctx: CliContext): Promise<CommandOutput> {
  const sub = findMemorySubcommand('remember')!;
  const rest = line.trim().replace(/^\/\S+/u, '');
  const parsed = parseSessionCall(sub, rest, line.trim());
  if ('usage' in parsed) return parsed.usage;
  return sub.run(ctx, parsed.call);
}
