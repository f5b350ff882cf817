import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/workspace/project-root.js';
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
