import { describe, expect, it } from 'vitest';
import { runFixture } from '../helpers/child.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

describe('several processes on one database (M-3.5)', () => {
  it('4 processes × 250 turns: all 1,000 present, sequences unique, one active thread', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    await memory.close();
    const results = await Promise.all([0, 1, 2, 3].map((i) => runFixture('turn-writer.mjs', [repo, '250', `p${i}`])));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.prepare("SELECT count(*) AS n FROM turns WHERE state = 'completed'").get()).toEqual({ n: 1000 });
      expect(db.prepare('SELECT count(DISTINCT sequence) AS n, min(sequence) AS lo, max(sequence) AS hi FROM turns').get()).toEqual({
        n: 1000,
        lo: 1,
        hi: 1000,
      });
      expect(db.prepare("SELECT count(*) AS n FROM threads WHERE status = 'active'").get()).toEqual({ n: 1 });
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE kind = 'extraction'").get()).toEqual({ n: 1000 });
      for (let i = 0; i < 4; i += 1) {
        expect(db.prepare('SELECT count(*) AS n FROM turns WHERE user_text LIKE ?').get(`p${i} turn %`)).toEqual({ n: 250 });
      }
    });
  });
});

describe('crash recovery (M-10.1)', () => {
  it('a process killed with SIGKILL right after beginTurn: recovered as interrupted once', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const { spawn } = await import('node:child_process');
    const { FIXTURES } = await import('../helpers/child.js');
    const child = spawn(process.execPath, [FIXTURES + 'begin-and-wait.mjs', repo, String(clock.value)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
    });
    const handle = JSON.parse(line) as { turnId: string };
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));

    // The acknowledged turn survived the kill.
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.prepare('SELECT state, user_text FROM turns WHERE id = ?').get(handle.turnId)).toEqual({
        state: 'open',
        user_text: 'explain the parser 解释一下解析器',
      });
    });
    // Before the lease expires nothing is recovered.
    const early = openMemory({ repoRoot: repo, now: () => clock.value + 1_000 });
    expect(early.status().turns.open).toBe(1);
    await early.close();
    // After it expires: interrupted, with one extraction job.
    const later = openMemory({ repoRoot: repo, now: () => clock.value + 61_000 });
    expect(later.status().turns).toEqual({ open: 0, completed: 0, failed: 0, interrupted: 1 });
    expect(later.status().jobs.pending).toBe(1);
    await later.close();
    // A second restart does nothing more.
    const again = openMemory({ repoRoot: repo, now: () => clock.value + 120_000 });
    expect(again.status().turns.interrupted).toBe(1);
    expect(again.status().jobs.pending).toBe(1);
  });
});

describe('a writer killed mid-write loses nothing it acknowledged', () => {
  it('SIGKILL during a burst of turns: the database is sound and every acknowledged turn is there', async () => {
    const repo = tempRepo();
    const { spawn } = await import('node:child_process');
    const { FIXTURES } = await import('../helpers/child.js');
    const child = spawn(process.execPath, [FIXTURES + 'burst-writer.mjs', repo], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (out.split('\n').length > 200) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    const acknowledged = out.split('\n').filter((l) => l.startsWith('turn-'));
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);
    const clock = new ManualClock(Date.now() + 120_000);
    const memory = openMemory({ repoRoot: repo, now: clock.now });
    expect(memory.status().health).toBe('healthy');
    withRawDb(dbPathOf(repo), (db) => {
      const completed = new Set((db.prepare("SELECT id FROM turns WHERE state = 'completed'").all() as { id: string }[]).map((r) => r.id));
      for (const id of acknowledged) expect(completed.has(id), id).toBe(true);
      expect(db.prepare("SELECT count(*) AS n FROM turns WHERE state = 'open'").get()).toEqual({ n: 0 });
      expect(
        db.prepare('SELECT count(*) AS n FROM turns t WHERE NOT EXISTS (SELECT 1 FROM memory_jobs j WHERE j.turn_id = t.id)').get(),
      ).toEqual({ n: 0 });
    });
  });
});
