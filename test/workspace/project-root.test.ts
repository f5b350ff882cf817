import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, resolveProject } from '../../src/workspace/project-root.js';
import { tempRepo } from '../helpers/temp-repo.js';

describe('the project root', () => {
  it('is the git top level above a subfolder (a .git folder or a worktree .git file)', () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    expect(projectRoot(join(repo, 'src', 'deep'))).toBe(repo);
    const worktree = tempRepo();
    writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere\n');
    mkdirSync(join(worktree, 'lib'));
    expect(projectRoot(join(worktree, 'lib'))).toBe(worktree);
  });

  it('outside git, the nearest folder that already has Memory, else the folder itself', () => {
    const plain = tempRepo();
    mkdirSync(join(plain, 'a', 'b'), { recursive: true });
    expect(projectRoot(join(plain, 'a', 'b'))).toBe(join(plain, 'a', 'b'));
    mkdirSync(join(plain, '.autopatch-j'));
    expect(projectRoot(join(plain, 'a', 'b'))).toBe(plain);
  });
});

describe('resolveProject: one project setup for the CLI and the MCP server', () => {
  it('takes --repo relative to the current folder, else the git top level, and names a missing folder', () => {
    const top = tempRepo();
    mkdirSync(join(top, '.git'));
    mkdirSync(join(top, 'src', 'deep'), { recursive: true });
    expect(resolveProject(undefined, join(top, 'src', 'deep'))).toEqual({ root: top, problem: null });
    expect(resolveProject('src', top)).toEqual({ root: join(top, 'src'), problem: null });
    const missing = resolveProject('nope', top);
    expect(missing.problem).toBe(`--repo ${join(top, 'nope')} is not a folder`);
    writeFileSync(join(top, 'file.txt'), 'x');
    expect(resolveProject('file.txt', top).problem).toMatch(/is not a folder$/);
  });
});
