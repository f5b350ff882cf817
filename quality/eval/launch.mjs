// Runs one evaluation file of the vitest project quality-eval on src/ (the launchers run.mjs and
// retrieval-run.mjs). The evaluation writes its report to a file that is copied to stdout as it grows; vitest's
// own progress and any error go to stderr, so stdout holds the report alone, as the scripts printed it on dist/.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

/** Runs `file` (relative to the repository root) with `env` added to the environment; sets the exit code. */
export async function runEvaluation(file, env) {
  const dir = mkdtempSync(join(tmpdir(), 'autopatch-j-eval-'));
  const report = join(dir, 'report.txt');
  writeFileSync(report, '');
  const child = spawn(process.execPath, [vitest, 'run', '--project', 'quality-eval', '--reporter', 'dot', file], {
    cwd: root,
    stdio: ['inherit', 2, 'inherit'],
    env: { ...process.env, ...env, QUALITY_EVAL_REPORT: report },
  });
  let copied = 0;
  const copy = () => {
    const text = readFileSync(report);
    if (text.length > copied) process.stdout.write(text.subarray(copied));
    copied = text.length;
  };
  const timer = setInterval(copy, 200);
  const code = await new Promise((done) => child.on('close', (status) => done(status ?? 1)));
  clearInterval(timer);
  copy();
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = code;
}
