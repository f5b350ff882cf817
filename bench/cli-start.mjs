// CLI start: wall time of a whole process, beside bare node (issue 14: `--version`, `memory list`, `status`
// and `show` should cost at most 2.5× `node -e 0`). The bin runs one bundled CommonJS file from its V8 code
// cache; the model SDK, the agent and the markdown renderer load lazily.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.mjs';
import { itemId, seedItems } from './seed.mjs';

const CLI = fileURLToPath(new URL('../dist/cli/bin.cjs', import.meta.url));

function once(args) {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const elapsed = (performance.now() - start) * 1000;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return elapsed;
}

function stats(times) {
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}

/** Wall times in µs of whole processes; one warm-up run each. */
export function wall(args, repeats) {
  once(args);
  return stats(Array.from({ length: repeats }, () => once(args)));
}

/**
 * Rows: bare node and the read-only commands on a project with a small Memory (30 items, Chinese and English
 * titles), each with its ratio to bare node. The commands run in turn, round after round, so a noisy
 * neighbour slows all of them alike instead of one row.
 */
export async function cliStart(row, workload, repeats = 21) {
  const repo = await seedItems(workload, 30, 'cli-start');
  const cases = [
    ['CLI start: node -e 0 (wall)', ['-e', '0']],
    ['CLI start: autopatch-j --version (wall)', [CLI, '--version']],
    ['CLI start: autopatch-j memory list (wall)', [CLI, 'memory', 'list', '--repo', repo.dir]],
    ['CLI start: autopatch-j memory status (wall)', [CLI, 'memory', 'status', '--repo', repo.dir]],
    ['CLI start: autopatch-j memory show ID (wall)', [CLI, 'memory', 'show', itemId(0), '--repo', repo.dir]],
  ];
  const times = cases.map(([, args]) => (once(args), []));
  for (let round = 0; round < repeats; round += 1) cases.forEach(([, args], i) => times[i].push(once(args)));
  const bare = stats(times[0]);
  row(cases[0][0], bare);
  cases.slice(1).forEach(([label], i) => {
    const measured = stats(times[i + 1]);
    row(label, measured, { ratioToBareNode: measured.p50 / bare.p50 });
  });
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
