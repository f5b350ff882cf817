import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReviewWorkspace } from '../../src/workspace/review-workspace.js';
import { FIXTURES } from '../helpers/child.js';
import { runCli } from '../helpers/cli.js';
import { tempRepo } from '../helpers/temp-repo.js';

const patchFileOf = (repo: string): string => join(repo, '.autopatch-j', 'pending-patch.json');

/** Two files with one edit each; `padding` bytes of comment make an apply take long enough to be killed in. */
function propose(repo: string, padding = 0): void {
  const pad = padding > 0 ? `// ${'x'.repeat(padding)}\n` : '';
  writeFileSync(join(repo, 'a.js'), `export const a = 1;\n${pad}`);
  writeFileSync(join(repo, 'b.js'), `export const b = 1;\n${pad}`);
  new ReviewWorkspace(repo, { patchFile: patchFileOf(repo) }).proposePatch('bump', [
    { path: 'a.js', search: 'a = 1', replace: 'a = 2' },
    { path: 'b.js', search: 'b = 1', replace: 'b = 2' },
  ]);
}

describe('/undo and autopatch-j undo', () => {
  it('in a session, /apply then /undo puts both files back; a second /undo has nothing to undo', async () => {
    const repo = tempRepo();
    propose(repo);
    const run = await runCli(['--repo', repo, '--lines'], { input: '/apply\n/undo\n/undo\n' });
    expect(run.stdout).toContain('Applied patch #1 to 2 file(s).');
    expect(run.stdout).toContain('Undid patch #1: 2 file(s) restored as they were before it was applied.');
    expect(run.stderr).toContain('Nothing was undone:\n- there is no applied patch to undo');
    expect(readFileSync(join(repo, 'a.js'), 'utf8')).toBe('export const a = 1;\n');
    expect(readFileSync(join(repo, 'b.js'), 'utf8')).toBe('export const b = 1;\n');
  });

  it('autopatch-j undo refuses (exit 1) when a file changed since the apply, then works once it is back', async () => {
    const repo = tempRepo();
    propose(repo);
    expect((await runCli(['apply', '--repo', repo])).code).toBe(0);
    writeFileSync(join(repo, 'a.js'), 'export const a = 3;\n');
    const refused = await runCli(['undo', '--repo', repo, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({
      undone: false,
      problems: ['a.js changed since patch #1 was applied; undo would lose that change'],
    });
    writeFileSync(join(repo, 'a.js'), 'export const a = 2;\n');
    const undone = await runCli(['undo', '--repo', repo]);
    expect(undone.code).toBe(0);
    expect(readFileSync(join(repo, 'b.js'), 'utf8')).toBe('export const b = 1;\n');
    expect((await runCli(['help'])).stdout).toContain('undo');
  });

  it('an apply a crash interrupted is completed or rolled back at the next start, which says so, and doctor shows it', async () => {
    const repo = tempRepo();
    let interrupted = false;
    // SIGKILL right after the apply's 1st, 2nd, … fsync: the first crash point that leaves a journal not yet
    // committed is the one this test needs, however fast or busy the machine is.
    for (let fsyncs = 1; fsyncs <= 40 && !interrupted; fsyncs += 1) {
      rmSync(join(repo, '.autopatch-j'), { recursive: true, force: true });
      propose(repo, 1_000_000);
      const args = [join(FIXTURES, 'apply-patch.mjs'), repo, 'apply', 'crash-at-fsync', String(fsyncs)];
      const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
        child.stdout.once('data', () => child.stdin.write('go\n'));
        child.on('close', (_code, sig) => resolve(sig));
      });
      // The apply finished before its Nth fsync: no crash point is left to try.
      if (signal !== 'SIGKILL') break;
      let folders: string[] = [];
      try {
        folders = readdirSync(join(repo, '.autopatch-j', 'apply')).filter((n) => /^\d{8}T/.test(n));
      } catch {
        // Killed before the apply folder existed.
      }
      interrupted = folders.some((f) => {
        try {
          return !readFileSync(join(repo, '.autopatch-j', 'apply', f, 'journal.json'), 'utf8').includes('"committed"');
        } catch {
          return false;
        }
      });
    }
    expect(interrupted).toBe(true);
    const next = await runCli(['patch', '--repo', repo]);
    expect(next.stderr).toMatch(/^A crash interrupted applying patch #1 \(2 file\(s\)\); it was (completed|rolled back) now: /m);
    const a = readFileSync(join(repo, 'a.js'), 'utf8');
    expect(readFileSync(join(repo, 'b.js'), 'utf8')).toBe(a.replace('a', 'b'));
    const doctor = await runCli(['doctor', '--repo', repo, '--json']);
    const check = (JSON.parse(doctor.stdout) as { checks: { name: string; detail: string }[] }).checks.find((c) => c.name === 'patches');
    expect(check?.detail).toMatch(/a crash interrupted applying patch #1 at .*; the next start (completed|rolled back) it/);
  });
});
