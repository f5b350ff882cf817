// Large import: seeds about N MB of RAW turns, exports them, then restores the export into a fresh project in
// a separate process and reports the time, throughput and that process's peak memory (`memory import` keeps
// memory bounded: the file is read a chunk at a time into a scratch database). node bench/import.mjs [MB]
// Used by `npm run bench` (--only import).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureExport, seedLargeRepo } from './export.mjs';

/** Restores `file` into a new project in a child process; its peak resident memory is the import's own. */
export function measureImport(file) {
  const target = mkdtempSync(join(tmpdir(), 'autopatch-j-bench-import-'));
  const script = `
    import { MemoryManager } from ${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)};
    const memory = MemoryManager.open({ repoRoot: ${JSON.stringify(target)} });
    const start = performance.now();
    const result = await memory.restore(${JSON.stringify(file)});
    const ms = performance.now() - start;
    await memory.close();
    console.log(JSON.stringify({ turns: result.turns, ms, maxRssKb: process.resourceUsage().maxRSS }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  rmSync(target, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`import failed: ${run.stderr}`);
  const outcome = JSON.parse(run.stdout.trim().split('\n').at(-1));
  const bytes = statSync(file).size;
  return { ...outcome, bytes, mbPerSecond: bytes / 1024 / 1024 / (outcome.ms / 1000) };
}

/** Seeds, exports and imports `mb` megabytes; returns the import's figures. */
export async function importRound(mb) {
  const repo = await seedLargeRepo(mb);
  try {
    const exported = measureExport(repo.dir);
    const outcome = measureImport(exported.path);
    if (outcome.turns !== repo.turns) throw new Error(`import incomplete: ${JSON.stringify(outcome)}`);
    return outcome;
  } finally {
    repo.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await importRound(Number(process.argv[2] ?? '100')), null, 2));
}
