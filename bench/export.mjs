// Large export: seeds a database of about N MB of RAW turns, then exports it in a separate process and
// reports the time, throughput and that process's peak memory. node bench/export.mjs [MB]
// Used by `npm run bench` (--only export); run alone to try other sizes.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryManager } from '../dist/index.js';
import { Connection } from '../dist/memory/db/connection.js';

const TURN_TEXT = 4000;

/** Seeds `mb` megabytes of completed turns (user + assistant text, Chinese and ASCII) straight through SQL. */
export async function seedLargeRepo(mb) {
  const dir = mkdtempSync(join(tmpdir(), 'autopatch-j-bench-export-'));
  const memory = MemoryManager.open({ repoRoot: dir });
  const threadId = memory.status().activeThreadId;
  await memory.close();
  const conn = Connection.open(join(dir, '.autopatch-j', 'memory.db'));
  conn.db.pragma('synchronous = OFF');
  const insert = conn.db.prepare(
    `INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, 'general_chat', ?, ?, 'completed', ?, ?, ?)`,
  );
  const user = '请解释这个解析器如何处理边界情况 explain the parser edge cases '.repeat(TURN_TEXT / 60).slice(0, TURN_TEXT / 2);
  const assistant = 'The parser reads tokens one by one; 每个标记都会被检查。'.repeat(TURN_TEXT / 40).slice(0, TURN_TEXT);
  const perTurn = Buffer.byteLength(user) + Buffer.byteLength(assistant);
  const turns = Math.ceil((mb * 1024 * 1024) / perTurn);
  const batch = conn.db.transaction((from, to) => {
    for (let k = from; k < to; k += 1)
      insert.run(`turn-${k.toString(16).padStart(12, '0')}`, threadId, k + 1, `${k} ${user}`, assistant, k, k, k);
  });
  for (let k = 0; k < turns; k += 10_000) batch(k, Math.min(turns, k + 10_000));
  conn.db.pragma('wal_checkpoint(TRUNCATE)');
  conn.close();
  return { dir, turns, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Exports in a child process so its peak resident memory is the export's own. */
export function measureExport(dir) {
  const script = `
    import { MemoryManager } from ${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)};
    import { readFileSync, writeFileSync } from 'node:fs';
    const memory = MemoryManager.open({ repoRoot: ${JSON.stringify(dir)} });
    // Opening verifies every page through a memory map; reset the peak so it measures the export alone (Linux).
    let reset = true;
    try { writeFileSync('/proc/self/clear_refs', '5'); } catch { reset = false; }
    const start = performance.now();
    const result = memory.export();
    const ms = performance.now() - start;
    const hwm = reset ? Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) : NaN;
    await memory.close();
    console.log(JSON.stringify({ ...result, ms, maxRssKb: Number.isFinite(hwm) ? hwm : process.resourceUsage().maxRSS, peakResetAfterOpen: reset }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`export failed: ${run.stderr}`);
  const outcome = JSON.parse(run.stdout.trim().split('\n').at(-1));
  const bytes = statSync(outcome.path).size;
  return { ...outcome, bytes, mbPerSecond: bytes / 1024 / 1024 / (outcome.ms / 1000) };
}

/** The file ends like a complete snapshot (the last bytes close the object), read without loading it. */
export function endsComplete(path) {
  const size = statSync(path).size;
  const fd = openSync(path, 'r');
  try {
    const tail = Buffer.alloc(Math.min(64, size));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return /\}\s*\}\s*$/.test(tail.toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mb = Number(process.argv[2] ?? '300');
  const repo = await seedLargeRepo(mb);
  const result = measureExport(repo.dir);
  console.log(JSON.stringify({ turns: repo.turns, ...result, complete: endsComplete(result.path) }, null, 2));
  repo.remove();
}
