import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReviewWorkspace, describePatch } from '../../src/workspace/review-workspace.js';
import { tempRepo } from '../helpers/temp-repo.js';

describe('review workspace', () => {
  it('/apply changes nothing unless every search text still matches exactly once', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'a.ts'), 'const a = 1;\nconst b = 2;\n');
    writeFileSync(join(repo, 'b.ts'), 'export const x = "x";\n');
    const workspace = new ReviewWorkspace(repo);
    workspace.proposePatch('bump', [
      { path: 'a.ts', search: 'const a = 1;', replace: 'const a = 10;' },
      { path: 'b.ts', search: 'export const x = "x";', replace: 'export const x = "y";' },
    ]);
    writeFileSync(join(repo, 'b.ts'), 'export const x = "changed meanwhile";\n');
    const refused = workspace.applyPatch();
    expect(refused).toEqual({ applied: false, problems: ['b.ts: the search text no longer matches'] });
    expect(readFileSync(join(repo, 'a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 2;\n');
    expect(workspace.pendingPatch).not.toBeNull();

    workspace.revisePatch(undefined, [{ path: 'a.ts', search: 'const', replace: 'let' }]);
    expect(workspace.applyPatch()).toEqual({ applied: false, problems: ['a.ts: the search text matches more than once'] });

    workspace.revisePatch('bump a', [{ path: 'a.ts', search: 'const a = 1;', replace: 'const a = 10;' }]);
    expect(describePatch(workspace.pendingPatch!)).toContain('revision 2');
    expect(workspace.applyPatch()).toMatchObject({ applied: true });
    expect(readFileSync(join(repo, 'a.ts'), 'utf8')).toBe('const a = 10;\nconst b = 2;\n');
    expect(workspace.pendingPatch).toBeNull();
  });

  it('refuses edits outside the repository', () => {
    const repo = tempRepo();
    const workspace = new ReviewWorkspace(repo);
    workspace.proposePatch('escape', [{ path: '../evil.ts', search: 'x', replace: 'y' }]);
    const result = workspace.applyPatch();
    expect(result.applied).toBe(false);
    expect((result as { problems: string[] }).problems[0]).toMatch(/leaves the repository/);
  });

  it('/reset clears the patch, findings, source index and caches', () => {
    const workspace = new ReviewWorkspace(tempRepo());
    workspace.proposePatch('p', [{ path: 'a', search: 'a', replace: 'b' }]);
    workspace.findings.push({ path: 'a', line: 1, severity: 'low', message: 'm' });
    workspace.sourceIndex = ['a'];
    workspace.requestCache.set('k', 'v');
    expect(workspace.reset()).toEqual({ patchDiscarded: true, findingsCleared: 1 });
    expect([workspace.pendingPatch, workspace.findings, workspace.sourceIndex, workspace.requestCache.size]).toEqual([null, [], null, 0]);
  });
});
