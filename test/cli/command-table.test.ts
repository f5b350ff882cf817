import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMORY_TABLE, memorySubcommands, parseSessionCall, findMemorySubcommand } from '../../src/cli/commands/memory-table.js';
import { SLASH_COMMANDS, helpText } from '../../src/cli/commands/registry.js';
import { complete } from '../../src/cli/session.js';
import { runCli } from '../helpers/cli.js';
import { shortCandidateId } from '../../src/shared/ids.js';
import { tempRepo } from '../helpers/temp-repo.js';

describe('one command table for /memory … and autopatch-j memory …', () => {
  it('both surfaces offer the subcommands of the table, with the same usage', async () => {
    const session = SLASH_COMMANDS.find((c) => c.name === 'memory')!;
    expect(session.subcommands).toEqual(memorySubcommands('session').map((s) => s.name));
    const help = helpText(200);
    for (const sub of memorySubcommands('session')) expect(session.usage).toContain(sub.name);
    expect(help).toContain('/remember [--decision] <text…>');
    const shell = await runCli(['memory', '--help']);
    expect(shell.code).toBe(0);
    for (const sub of memorySubcommands('shell')) expect(shell.stdout).toMatch(new RegExp(`^  ${sub.name}\\b`, 'mu'));
    // import runs from the shell only; a session says where.
    expect(memorySubcommands('session').map((s) => s.name)).not.toContain('import');
  });

  it("each subcommand's help has its arguments, options, --json shape and exit codes", async () => {
    for (const name of ['export', 'keep', 'remember']) {
      const sub = findMemorySubcommand(name)!;
      const run = await runCli(['memory', name, '--help']);
      expect(run.code, name).toBe(0);
      const text = run.stdout.replace(/\s+/gu, ' ');
      for (const option of sub.options) expect(text, name).toContain(option.flag);
      for (const arg of sub.args) expect(text, name).toContain(arg.name);
      expect(text, name).toContain(sub.json.replace(/\s+/gu, ' ').slice(0, 30));
      expect(text, name).toContain('Exit codes: 0 success');
      for (const [code] of sub.exits) expect(text, name).toContain(` ${code} `);
    }
  });

  it('a session call is read against the table: options anywhere, values, free text as typed, unknown options refused', () => {
    const exp = findMemorySubcommand('export')!;
    const parsed = parseSessionCall(exp, ' --markdown --out notes.md', '/memory export --markdown --out notes.md');
    expect('call' in parsed && [...parsed.call.options]).toEqual([
      ['--markdown', true],
      ['--out', 'notes.md'],
    ]);
    const missing = parseSessionCall(exp, '--out', '/memory export --out');
    expect('usage' in missing && missing.usage.exitCode).toBe(2);
    const unknown = parseSessionCall(findMemorySubcommand('clear')!, '--confrim', '/memory clear --confrim');
    expect('usage' in unknown && unknown.usage.text).toContain('Unknown option --confrim');
    const remember = parseSessionCall(findMemorySubcommand('remember')!, '--decision  用 pnpm，  不用 yarn --force', '/remember …');
    expect('call' in remember && remember.call.args).toEqual(['用 pnpm，  不用 yarn --force']);
    expect('call' in remember && remember.call.options.has('--decision')).toBe(true);
  });

  it('completion comes from the table: subcommands, options, and argument kinds', () => {
    const held = { suggestion: 'job-1m8s14tt5yeq1s7n#s1', keepable: 'job-1m8s14tt5yeq1s7n#1', provenance: 'job-1m8s14tt5yeq1s7n#2' };
    const ctx = {
      memory: {
        list: () => [{ id: 'm1a2b3c4' }, { id: 'mzz00000' }],
        suggestions: () => [{ candidateId: held.suggestion }],
        refused: () => [
          { candidateId: held.keepable, keepable: true },
          { candidateId: held.provenance, keepable: false },
        ],
      },
    } as unknown as Parameters<typeof complete>[1];
    expect(complete('/memory ke', ctx)).toEqual([['keep '], 'ke']);
    expect(complete('/memory clear --c', ctx)).toEqual([['--confirm '], '--c']);
    expect(complete('/memory clear ', ctx)).toEqual([['--confirm '], '']);
    expect(complete('/memory export --markdown --o', ctx)).toEqual([['--out '], '--o']);
    expect(complete('/remember --d', ctx)).toEqual([['--decision '], '--d']);
    expect(complete('/memory show m1', ctx)).toEqual([['m1a2b3c4 '], 'm1']);
    expect(complete('/memory forget ', ctx)).toEqual([['m1a2b3c4 ', 'mzz00000 '], '']);
    // A held id completes to the short names of the suggestions and of the refusals keep may overrule.
    const [suggestion, keepable] = [shortCandidateId(held.suggestion), shortCandidateId(held.keepable)];
    expect(complete('/memory keep ', ctx)).toEqual([[`${suggestion} `, `${keepable} `], '']);
    expect(complete('/memory dismiss s', ctx)).toEqual([[`${suggestion} `], 's']);
  });

  it('a session names where a shell-only subcommand runs; a memory word alone is guessed from the table', async () => {
    const { runMemorySlash } = await import('../../src/cli/commands/memory-table.js');
    const result = await runMemorySlash('/memory import x.json', {} as never);
    expect(result).toMatchObject({ exitCode: 2, text: 'memory import runs from the shell: autopatch-j memory import <file>' });
    const guess = await runCli(['keep', 's7k2mq', '--repo', tempRepo()]);
    expect(guess.code).toBe(2);
    expect(guess.stderr).toContain("Did you mean 'autopatch-j memory keep s7k2mq'?");
  });

  it('a subcommand that never creates a Memory says so in a project without one, with its declared exit code', async () => {
    for (const sub of MEMORY_TABLE.filter((s) => s.withoutMemory !== null && (s.surfaces ?? ['shell']).includes('shell'))) {
      const repo = tempRepo();
      const args = sub.args.filter((a) => a.required).map(() => 'm1a2b3c4');
      const run = await runCli(['memory', sub.name, ...args, '--repo', repo, '--json']);
      expect(run.code, sub.name).toBe(sub.withoutMemory!.exitCode);
      expect(existsSync(join(repo, '.autopatch-j', 'memory.db')), sub.name).toBe(false);
      const json = JSON.parse(run.stdout) as unknown;
      if (Array.isArray(sub.withoutMemory!.json)) expect(json, sub.name).toEqual([]);
      else expect(json, sub.name).toMatchObject({ memory: null, message: expect.stringContaining('No Memory in this project yet') });
    }
  });
});
