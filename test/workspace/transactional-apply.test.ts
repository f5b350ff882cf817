import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReviewWorkspace } from '../../src/workspace/review-workspace.js';
import { recoverTransactions } from '../../src/workspace/apply-recovery.js';
import { fillDisk, smallFs, smallFsUnavailable } from '../helpers/small-fs.js';
import { tempRepo } from '../helpers/temp-repo.js';

const patchFileOf = (repo: string): string => join(repo, '.autopatch-j', 'pending-patch.json');

/** Every file under a folder (relative paths), the data folder and .git aside. */
function filesUnder(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '.autopatch-j' || entry.name === '.git') continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, base));
    else out.push(full.slice(base.length + 1));
  }
  return out.sort();
}

describe('transactional /apply and /undo (issue "Safe hands", item 1)', () => {
  it('applies every file of a patch, keeps nothing beside them, and /undo restores each byte for byte', () => {
    const repo = tempRepo();
    const before = new Map<string, Buffer>();
    const edits = [];
    for (let i = 0; i < 12; i += 1) {
      const rel = i % 2 === 0 ? `src/f${i}.js` : `lib/deep/f${i}.js`;
      mkdirSync(join(repo, rel, '..'), { recursive: true });
      const bytes = Buffer.from(`// file ${i}\r\nexport const v${i} = ${i};\n\u00a0trailing`);
      writeFileSync(join(repo, rel), bytes, { mode: i === 3 ? 0o755 : 0o640 });
      before.set(rel, bytes);
      edits.push({ path: rel, search: `v${i} = ${i};`, replace: `v${i} = ${i * 10};` });
    }
    const workspace = new ReviewWorkspace(repo, { patchFile: patchFileOf(repo) });
    workspace.proposePatch('twelve', edits);
    expect(workspace.applyPatch()).toEqual({ applied: true, files: [...before.keys()] });
    for (const [rel, bytes] of before) {
      const now = readFileSync(join(repo, rel));
      expect(now.toString('latin1')).toBe(bytes.toString('latin1').replace(/= (\d+);/, (_m, n: string) => `= ${Number(n) * 10};`));
    }
    expect(statSync(join(repo, 'lib/deep/f3.js')).mode & 0o777).toBe(0o755);
    expect(statSync(join(repo, 'src/f0.js')).mode & 0o777).toBe(0o640);
    expect(filesUnder(repo)).toEqual([...before.keys()].sort());
    expect(workspace.pendingPatch).toBeNull();

    // A later process undoes it.
    const later = new ReviewWorkspace(repo, { patchFile: patchFileOf(repo) });
    expect(later.undoLastApply()).toEqual({ undone: true, files: [...before.keys()], patchId: 1 });
    for (const [rel, bytes] of before) expect(readFileSync(join(repo, rel)).equals(bytes)).toBe(true);
    expect(filesUnder(repo)).toEqual([...before.keys()].sort());
    expect(later.undoLastApply()).toEqual({ undone: false, problems: ['there is no applied patch to undo'] });
  });

  it('/undo refuses when a file changed since the apply, and changes nothing', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'a.js'), 'a = 1;\n');
    writeFileSync(join(repo, 'b.js'), 'b = 1;\n');
    const workspace = new ReviewWorkspace(repo, { patchFile: patchFileOf(repo) });
    workspace.proposePatch('two', [
      { path: 'a.js', search: 'a = 1;', replace: 'a = 2;' },
      { path: 'b.js', search: 'b = 1;', replace: 'b = 2;' },
    ]);
    expect(workspace.applyPatch()).toMatchObject({ applied: true });
    writeFileSync(join(repo, 'b.js'), 'b = 2; // edited by hand\n');
    expect(workspace.undoLastApply()).toEqual({
      undone: false,
      problems: ['b.js changed since patch #1 was applied; undo would lose that change'],
    });
    expect(readFileSync(join(repo, 'a.js'), 'utf8')).toBe('a = 2;\n');
    expect(readFileSync(join(repo, 'b.js'), 'utf8')).toBe('b = 2; // edited by hand\n');
  });

  it('edits the bytes of a Latin-1 file and leaves every other byte as it was', () => {
    const repo = tempRepo();
    // "café = 1;\nnaïve = 2;\n" in Latin-1: é and ï are single bytes that are not valid UTF-8.
    const latin1 = Buffer.from('caf\u00e9 = 1;\nna\u00efve = 2;\nx = 3;\n', 'latin1');
    writeFileSync(join(repo, 'legacy.txt'), latin1);
    const workspace = new ReviewWorkspace(repo);
    workspace.proposePatch('x', [{ path: 'legacy.txt', search: 'x = 3;', replace: 'x = 4;' }]);
    expect(workspace.applyPatch()).toMatchObject({ applied: true });
    expect(readFileSync(join(repo, 'legacy.txt')).equals(Buffer.from('caf\u00e9 = 1;\nna\u00efve = 2;\nx = 4;\n', 'latin1'))).toBe(true);

    // The model saw the undecodable byte as U+FFFD: such an edit is refused with a clear reason.
    workspace.proposePatch('cafe', [{ path: 'legacy.txt', search: 'caf\ufffd = 1;', replace: 'cafe = 1;' }]);
    const refused = workspace.applyPatch();
    expect(refused.applied).toBe(false);
    expect((refused as { problems: string[] }).problems[0]).toMatch(/^legacy\.txt: the file is not valid UTF-8/);
  });

  it('refuses .git/, .autopatch-j/, links (file or folder) and paths that leave the project', () => {
    const repo = tempRepo();
    const outside = tempRepo('autopatch-j-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'secret = 1;\n');
    mkdirSync(join(repo, '.git'));
    writeFileSync(join(repo, '.git', 'config'), 'secret = 1;\n');
    mkdirSync(join(repo, '.autopatch-j'));
    writeFileSync(join(repo, '.autopatch-j', 'cli_history'), 'secret = 1;\n');
    symlinkSync(join(outside, 'secret.txt'), join(repo, 'link.txt'));
    symlinkSync(outside, join(repo, 'linked-dir'));
    const cases = ['.git/config', 'src/../.git/config', '.autopatch-j/cli_history', 'link.txt', 'linked-dir/secret.txt', '../x/secret.txt'];
    for (const path of cases) {
      const workspace = new ReviewWorkspace(repo);
      workspace.proposePatch('evil', [{ path, search: 'secret = 1;', replace: 'secret = 2;' }]);
      const result = workspace.applyPatch();
      expect(result.applied, path).toBe(false);
      expect((result as { problems: string[] }).problems[0], path).toMatch(/\.git\/|\.autopatch-j\/|symbolic link|leaves the repository/);
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret = 1;\n');
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe('secret = 1;\n');
  });

  it('keeps the pending patch without ever writing through a planted link (temp names or the file itself)', () => {
    const repo = tempRepo();
    const outside = tempRepo('autopatch-j-outside-');
    const target = join(outside, 'victim.txt');
    writeFileSync(target, 'untouched\n');
    mkdirSync(join(repo, '.autopatch-j'));
    // What the old code wrote through: `pending-patch.json.<pid>.tmp` for likely pids, and the file itself.
    for (let pid = process.pid - 5; pid < process.pid + 50; pid += 1)
      symlinkSync(target, join(repo, '.autopatch-j', `pending-patch.json.${pid}.tmp`));
    symlinkSync(target, patchFileOf(repo));
    writeFileSync(join(repo, 'a.js'), 'a = 1;\n');
    const workspace = new ReviewWorkspace(repo, { patchFile: patchFileOf(repo) });
    expect(workspace.pendingPatch).toBeNull();
    // A folder with planted links is not the user's own: the patch stays in the session, nothing is written there.
    expect(workspace.untrusted).toMatch(/is a symbolic link/);
    workspace.proposePatch('one', [{ path: 'a.js', search: 'a = 1;', replace: 'a = 2;' }]);
    workspace.discardPatch();
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
    expect(lstatSync(patchFileOf(repo)).isSymbolicLink()).toBe(true);

    // In the user's own folder the patch file is replaced by rename: a link that appears later is replaced, not followed.
    const own = tempRepo();
    writeFileSync(join(own, 'a.js'), 'a = 1;\n');
    const mine = new ReviewWorkspace(own, { patchFile: patchFileOf(own) });
    mine.proposePatch('one', [{ path: 'a.js', search: 'a = 1;', replace: 'a = 2;' }]);
    const later = new ReviewWorkspace(own, { patchFile: patchFileOf(own) });
    expect(later.untrusted).toBeNull();
    expect(later.pendingPatch).toMatchObject({ id: 1, summary: 'one' });
  });

  it('a patch the last apply already applied (a crash before it was cleared) is not pending again', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'a.js'), 'a = 1;\n');
    const first = new ReviewWorkspace(repo, { patchFile: patchFileOf(repo) });
    first.proposePatch('one', [{ path: 'a.js', search: 'a = 1;', replace: 'a = 2;' }]);
    const kept = readFileSync(patchFileOf(repo));
    expect(first.applyPatch()).toMatchObject({ applied: true });
    writeFileSync(patchFileOf(repo), kept);
    expect(new ReviewWorkspace(repo, { patchFile: patchFileOf(repo) }).pendingPatch).toBeNull();
  });

  it('recovery leaves a live process’s apply alone and ignores a crafted journal', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'a.js'), 'a = 1;\n');
    const folder = join(repo, '.autopatch-j', 'apply', '20270101T000000000Z-abcdef');
    mkdirSync(folder, { recursive: true });
    // A journal naming a path outside the project and a backup outside the folder: never followed.
    writeFileSync(
      join(folder, 'journal.json'),
      JSON.stringify({
        format: 'autopatch-j-apply',
        version: 1,
        id: '20270101T000000000Z-abcdef',
        pid: 999999,
        state: 'prepared',
        kind: 'apply',
        files: [{ path: '../../etc/passwd', temp: 'a.js', backup: '../x', oldIno: 1, oldSize: 1, newIno: 2, newSize: 1, mode: 420 }],
      }),
    );
    expect(recoverTransactions(repo, Date.now())).toEqual([]);
    expect(readFileSync(join(repo, 'a.js'), 'utf8')).toBe('a = 1;\n');
    expect(existsSync(join(folder, 'journal.json'))).toBe(true);
  });

  const noFs = smallFsUnavailable();
  it.skipIf(noFs !== null)('a full disk leaves every file as it was and says which file and how much space it needed', () => {
    const repo = smallFs(16 * 1024);
    writeFileSync(join(repo, 'small.js'), 'x = 1;\n');
    const big = Buffer.alloc(6 * 1024 * 1024, 0x61);
    big.write('MARK = 1;', 1000);
    writeFileSync(join(repo, 'big.txt'), big);
    const workspace = new ReviewWorkspace(repo, { patchFile: patchFileOf(repo) });
    workspace.proposePatch('both', [
      { path: 'small.js', search: 'x = 1;', replace: 'x = 2;' },
      { path: 'big.txt', search: 'MARK = 1;', replace: 'MARK = 2;' },
    ]);
    fillDisk(repo, 2 * 1024 * 1024);
    const result = workspace.applyPatch();
    expect(result.applied).toBe(false);
    expect((result as { problems: string[] }).problems).toEqual([
      expect.stringMatching(
        /^big\.txt: not enough space on the disk: the new file needs 6\.0 MB, \d\.\d MB are free; nothing was changed$/,
      ),
    ]);
    expect(readFileSync(join(repo, 'small.js'), 'utf8')).toBe('x = 1;\n');
    expect(readFileSync(join(repo, 'big.txt')).equals(big)).toBe(true);
    expect(filesUnder(repo)).toEqual(['big.txt', 'filler', 'small.js']);
    expect(workspace.pendingPatch).not.toBeNull();
  });
});
