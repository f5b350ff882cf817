import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReviewWorkspace } from '../../src/workspace/review-workspace.js';
import { tempRepo } from '../helpers/temp-repo.js';

describe('the pending patch', () => {
  it('an edit whose replacement still contains its search text is not applied a second time', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'calc.js'), 'return a + b;\n');
    const patchFile = join(repo, '.autopatch-j', 'pending-patch.json');
    const first = new ReviewWorkspace(repo, { patchFile });
    first.proposePatch('round', [{ path: 'calc.js', search: 'a + b', replace: 'Math.round(a + b)' }]);
    // Someone applies the same change by hand (or another session did); the kept patch must not nest it.
    writeFileSync(join(repo, 'calc.js'), 'return Math.round(a + b);\n');
    const later = new ReviewWorkspace(repo, { patchFile });
    expect(later.applyPatch()).toEqual({
      applied: false,
      problems: ['calc.js: the replacement is already there (the patch looks applied)'],
    });
    expect(readFileSync(join(repo, 'calc.js'), 'utf8')).toBe('return Math.round(a + b);\n');
  });

  it('each search text must match exactly once in the file as it is, not only after the earlier edits', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'a.js'), 'x = 1;\ny = 2;\n');
    const workspace = new ReviewWorkspace(repo);
    // The second edit's search text exists only because the first edit creates it.
    workspace.proposePatch('two', [
      { path: 'a.js', search: 'x = 1;', replace: 'x = 1; z = 3;' },
      { path: 'a.js', search: 'z = 3;', replace: 'z = 4;' },
    ]);
    expect(workspace.applyPatch()).toEqual({ applied: false, problems: ['a.js: the search text no longer matches'] });
  });

  it('is kept on disk for a later process, with its number, and removed once applied or discarded', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'a.js'), 'x = 1;\n');
    const patchFile = join(repo, '.autopatch-j', 'pending-patch.json');
    const first = new ReviewWorkspace(repo, { patchFile });
    first.proposePatch('one', [{ path: 'a.js', search: 'x = 1;', replace: 'x = 2;' }]);
    first.discardPatch();
    first.proposePatch('two', [{ path: 'a.js', search: 'x = 1;', replace: 'x = 3;' }]);
    const second = new ReviewWorkspace(repo, { patchFile });
    expect(second.pendingPatch).toMatchObject({ id: 2, summary: 'two' });
    expect(second.applyPatch()).toMatchObject({ applied: true });
    expect(new ReviewWorkspace(repo, { patchFile }).pendingPatch).toBeNull();
    expect(new ReviewWorkspace(repo, { patchFile }).proposePatch('three', []).id).toBe(3);
  });
});
