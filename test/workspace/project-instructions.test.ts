import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSTRUCTION_BUDGET, loadProjectInstructions } from '../../src/workspace/project-instructions.js';
import { tempRepo } from '../helpers/temp-repo.js';

const chars = (text: string): number => Array.from(text).length;

describe('project instruction files (M-1.2: source, not Memory)', () => {
  it('reads AGENTS.md, CLAUDE.md, GEMINI.md and .github/copilot-instructions.md at the root, in that order', () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.github'));
    writeFileSync(join(repo, 'GEMINI.md'), 'GEMINI-RULE\n');
    writeFileSync(join(repo, 'AGENTS.md'), '# Rules\nAGENTS-RULE: use pnpm\r\n');
    writeFileSync(join(repo, '.github', 'copilot-instructions.md'), 'COPILOT-RULE\n');
    const found = loadProjectInstructions(repo);
    expect(found.files.map((f) => f.path)).toEqual(['AGENTS.md', 'GEMINI.md', '.github/copilot-instructions.md']);
    expect(found.skipped).toEqual([]);
    expect(found.text).toContain('They are source, not Memory');
    expect(found.text.indexOf('AGENTS-RULE')).toBeLessThan(found.text.indexOf('GEMINI-RULE'));
    expect(found.text).toContain('----- .github/copilot-instructions.md -----\nCOPILOT-RULE');
    expect(found.text).not.toContain('\r');
  });

  it('adds AGENTS.md of every folder from the root down to the start folder, nearest last; not from outside it', () => {
    const repo = tempRepo();
    mkdirSync(join(repo, 'services', 'api', 'src'), { recursive: true });
    mkdirSync(join(repo, 'web'));
    writeFileSync(join(repo, 'AGENTS.md'), 'ROOT\n');
    writeFileSync(join(repo, 'services', 'AGENTS.md'), 'SERVICES\n');
    writeFileSync(join(repo, 'services', 'api', 'AGENTS.md'), 'API\n');
    writeFileSync(join(repo, 'web', 'AGENTS.md'), 'WEB\n');
    const found = loadProjectInstructions(repo, join(repo, 'services', 'api', 'src'));
    expect(found.files.map((f) => f.path)).toEqual(['AGENTS.md', 'services/AGENTS.md', 'services/api/AGENTS.md']);
    expect(found.text).not.toContain('WEB');
    // Started outside the project (--repo from elsewhere): only the root files.
    expect(loadProjectInstructions(repo, tempRepo()).files.map((f) => f.path)).toEqual(['AGENTS.md']);
  });

  it('never reads AGENTS.md inside node_modules or .autopatch-j on the way down', () => {
    const repo = tempRepo();
    mkdirSync(join(repo, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(repo, 'node_modules', 'AGENTS.md'), 'DEPENDENCY\n');
    writeFileSync(join(repo, 'node_modules', 'dep', 'AGENTS.md'), 'DEPENDENCY\n');
    const found = loadProjectInstructions(repo, join(repo, 'node_modules', 'dep'));
    expect(found.files).toEqual([]);
    expect(found.text).toBe('');
  });

  it('cuts a 1 MB file to the budget with a line that says what was cut', () => {
    const repo = tempRepo();
    const line = 'Always run the linter before you commit; 提交前先跑 lint。\n';
    writeFileSync(join(repo, 'AGENTS.md'), line.repeat(Math.ceil((1024 * 1024) / Buffer.byteLength(line))));
    writeFileSync(join(repo, 'CLAUDE.md'), 'SHORT-CLAUDE-RULE\n');
    const found = loadProjectInstructions(repo);
    expect(chars(found.text)).toBeLessThanOrEqual(INSTRUCTION_BUDGET);
    expect(chars(found.text)).toBeGreaterThan(INSTRUCTION_BUDGET - 400);
    const agents = found.files.find((f) => f.path === 'AGENTS.md')!;
    expect(agents.cut).toBe(true);
    expect(agents.bytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(found.text).toMatch(
      /\[cut by autopatch-j: AGENTS\.md has 1,04\d,\d{3} bytes; the first [\d,]+ characters are shown \(project instructions are limited to 8,000 characters in all\)\]/,
    );
    // The short file is kept whole; the cut falls on a line break.
    expect(found.files.find((f) => f.path === 'CLAUDE.md')).toMatchObject({ cut: false });
    expect(found.text).toContain('SHORT-CLAUDE-RULE');
    expect(found.text).toContain(`提交前先跑 lint。\n[cut by autopatch-j`);
  });

  it('shares the budget so a second long file is not pushed out', () => {
    const repo = tempRepo();
    mkdirSync(join(repo, 'pkg'));
    writeFileSync(join(repo, 'AGENTS.md'), 'R'.repeat(20_000));
    writeFileSync(join(repo, 'pkg', 'AGENTS.md'), `NESTED-START ${'N'.repeat(20_000)}`);
    const found = loadProjectInstructions(repo, join(repo, 'pkg'));
    expect(found.files.map((f) => [f.path, f.cut])).toEqual([
      ['AGENTS.md', true],
      ['pkg/AGENTS.md', true],
    ]);
    const [a, b] = found.files;
    expect(Math.abs(a!.shown - b!.shown)).toBeLessThanOrEqual(found.files[1]!.path.length + 2);
    expect(found.text).toContain('NESTED-START');
    expect(chars(found.text)).toBeLessThanOrEqual(INSTRUCTION_BUDGET);
  });

  it('does not follow a link that leaves the project, and says so', () => {
    const repo = tempRepo();
    const outside = tempRepo();
    writeFileSync(join(outside, 'secret.md'), 'OUTSIDE-SECRET\n');
    symlinkSync(join(outside, 'secret.md'), join(repo, 'AGENTS.md'));
    mkdirSync(join(outside, 'gh'));
    writeFileSync(join(outside, 'gh', 'copilot-instructions.md'), 'OUTSIDE-COPILOT\n');
    symlinkSync(join(outside, 'gh'), join(repo, '.github'));
    symlinkSync(join(repo, 'missing.md'), join(repo, 'GEMINI.md'));
    const found = loadProjectInstructions(repo);
    expect(found.files).toEqual([]);
    expect(found.text).toBe('');
    expect(found.skipped).toEqual([
      { path: 'AGENTS.md', reason: 'a link that leads outside the project (not followed)' },
      { path: 'GEMINI.md', reason: 'a link to nothing' },
      { path: '.github/copilot-instructions.md', reason: 'a link that leads outside the project (not followed)' },
    ]);
  });

  it('follows a link inside the project once: CLAUDE.md -> AGENTS.md is one file', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'AGENTS.md'), 'SHARED-RULE\n');
    symlinkSync('AGENTS.md', join(repo, 'CLAUDE.md'));
    const found = loadProjectInstructions(repo);
    expect(found.files.map((f) => f.path)).toEqual(['AGENTS.md']);
    expect(found.skipped).toEqual([{ path: 'CLAUDE.md', reason: 'the same file as AGENTS.md' }]);
    expect(found.text.split('SHARED-RULE').length).toBe(2);
  });

  it('skips a file that is not UTF-8, binary, empty or a folder, with a note', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'AGENTS.md'), Buffer.from([0x52, 0xe9, 0x67, 0x6c, 0x65, 0x73, 0x0a])); // "Règles" in Latin-1
    writeFileSync(join(repo, 'CLAUDE.md'), Buffer.from([0x41, 0x00, 0x42]));
    writeFileSync(join(repo, 'GEMINI.md'), '  \n\n');
    mkdirSync(join(repo, '.github', 'copilot-instructions.md'), { recursive: true });
    const found = loadProjectInstructions(repo);
    expect(found.files).toEqual([]);
    expect(found.skipped).toEqual([
      { path: 'AGENTS.md', reason: 'not UTF-8 text (not read)' },
      { path: 'CLAUDE.md', reason: 'not text (it holds NUL bytes)' },
      { path: 'GEMINI.md', reason: 'empty' },
      { path: '.github/copilot-instructions.md', reason: 'not a regular file' },
    ]);
  });

  it('a multi-byte character cut by the read limit is not an encoding error', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'AGENTS.md'), `x${'汉'.repeat(40_000)}`); // 120,001 bytes: the read stops inside a character
    const found = loadProjectInstructions(repo);
    expect(found.skipped).toEqual([]);
    expect(found.files[0]).toMatchObject({ path: 'AGENTS.md', cut: true, bytes: 120_001 });
  });
});
