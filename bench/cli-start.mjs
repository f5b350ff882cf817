// CLI start: wall time of a whole process, beside bare node (issue 14: `--version` and `memory list`
// should cost at most 2.5× `node -e 0`; the model SDK, the agent and the markdown renderer load lazily).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.mjs';
import { freshRepo } from './seed.mjs';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

export function wall(args, repeats) {
  const times = [];
  for (let i = 0; i < repeats + 1; i += 1) {
    const start = performance.now();
    const run = spawnSync(process.execPath, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    const elapsed = (performance.now() - start) * 1000;
    if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    if (i > 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}

/** Rows: bare node, `--version`, `memory list` on a project with a small Memory, and their ratio to bare node. */
export async function cliStart(row, repeats = 15) {
  const repo = freshRepo('cli-start');
  await repo.close();
  const bare = wall(['-e', '0'], repeats);
  row('CLI start: node -e 0 (wall)', bare);
  for (const [label, args] of [
    ['CLI start: autopatch-j --version (wall)', [CLI, '--version']],
    ['CLI start: autopatch-j memory list (wall)', [CLI, 'memory', 'list', '--repo', repo.dir]],
  ]) {
    const stats = wall(args, repeats);
    row(label, stats, { ratioToBareNode: stats.p50 / bare.p50 });
  }
  repo.remove();
}

/** `autopatch-j memory status` at a large Memory, whole process, after a verified clean close (issue 14: ≤ 0.3 s). */
export function statusAtScale(row, dir, label, repeats = 5) {
  row(`CLI: autopatch-j memory status, ${label} (wall)`, wall([CLI, 'memory', 'status', '--repo', dir], repeats));
}

/** Time to the interactive prompt at a large Memory, in a real pseudo-terminal (issue 14: ≤ 0.3 s at 100k items). */
export function promptAtScale(row, dir, label, repeats = 5) {
  const script = fileURLToPath(new URL('./prompt-time.py', import.meta.url));
  const run = spawnSync('python3', [script, process.execPath, CLI, dir, String(repeats + 1)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`prompt timing failed: ${run.stderr}`);
  const times = JSON.parse(run.stdout)
    .slice(1)
    .sort((a, b) => a - b);
  if (times.length === 0) throw new Error('the prompt never appeared');
  row(`CLI: time to the prompt, ${label} (pty)`, {
    n: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
  });
}
