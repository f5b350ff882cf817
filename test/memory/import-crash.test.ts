import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { Connection } from '../../src/memory/db/connection.js';
import { collect } from '../helpers/child.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

const TURNS = 3000;

/** A Memory of TURNS completed turns (about 12 MB of RAW text), exported; seeded through SQL for speed. */
async function bigExport(): Promise<string> {
  const repo = tempRepo();
  const memory = MemoryManager.open({ repoRoot: repo });
  const thread = memory.status().activeThreadId!;
  await memory.close();
  const conn = Connection.open(dbPathOf(repo));
  const insert = conn.db.prepare(
    `INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, 'general_chat', ?, ?, 'completed', ?, ?, ?)`,
  );
  const text = '解释这个解析器的边界情况 explain the parser edge cases. '.repeat(60);
  conn.db.transaction(() => {
    for (let k = 1; k <= TURNS; k += 1) insert.run(`turn-${String(k).padStart(8, '0')}`, thread, k, `${k} ${text}`, text, k, k, k);
  })();
  conn.close();
  const again = MemoryManager.open({ repoRoot: repo });
  const { path } = again.export();
  await again.close();
  return path;
}

describe('memory import killed mid-way (kill -9)', () => {
  it('the scratch folder of an import whose process is gone is removed at the next start', async () => {
    const repo = tempRepo();
    await MemoryManager.open({ repoRoot: repo }).close();
    const gone = spawn(process.execPath, ['-e', '0']);
    await collect(gone, 10_000);
    const stale = join(repo, '.autopatch-j', `.import-${gone.pid}-x1y2z3`);
    mkdirSync(stale);
    writeFileSync(join(stale, 'memory.db'), 'RAW copy');
    const mine = join(repo, '.autopatch-j', `.import-${process.pid}-a1b2c3`);
    mkdirSync(mine);
    await MemoryManager.open({ repoRoot: repo }).close();
    expect(existsSync(stale)).toBe(false);
    // One of a process still running is its own.
    expect(existsSync(mine)).toBe(true);
  });

  it('leaves the target absent, empty or complete — never part of the export — and the next import finishes and cleans up', async () => {
    const file = await bigExport();
    const outcomes = new Set<string>();
    for (const delay of [40, 120, 250, 400, 600, 900]) {
      const target = tempRepo();
      const child = spawn(process.execPath, [CLI_PATH, 'memory', 'import', file, '--repo', target], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      setTimeout(() => child.kill('SIGKILL'), delay);
      const done = await collect(child, 60_000);
      // A kill before the schema was written leaves a blank file, which the next open treats as absent (M-2.3).
      const turns = existsSync(dbPathOf(target))
        ? withRawDb(dbPathOf(target), (db) =>
            db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'turns'").get() === undefined
              ? -1
              : (db.prepare('SELECT count(*) AS n FROM turns').get() as { n: number }).n,
          )
        : -1;
      expect([-1, 0, TURNS], `after ${delay} ms (${done.signal ?? done.code})`).toContain(turns);
      outcomes.add(done.signal === 'SIGKILL' ? `killed with ${turns}` : `finished with ${turns}`);
      if (turns !== TURNS) {
        const retry = await runCli(['memory', 'import', file, '--repo', target]);
        expect(retry.code, retry.stderr).toBe(0);
      }
      const status = JSON.parse((await runCli(['memory', 'status', '--json', '--repo', target])).stdout) as {
        health: string;
        turns: { completed: number };
      };
      expect(status).toMatchObject({ health: 'healthy', turns: { completed: TURNS } });
      // A scratch folder a killed import left behind is removed by the next start (status) or import.
      expect(readdirSync(join(target, '.autopatch-j')).filter((n) => n.startsWith('.import-'))).toEqual([]);
    }
    // The kills landed at different stages (at least one before the copy committed).
    expect([...outcomes].some((o) => o.startsWith('killed'))).toBe(true);
  });
});
