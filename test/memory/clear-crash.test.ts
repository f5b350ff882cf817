import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { collect, FIXTURES } from '../helpers/child.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { MemoryManager } from '../../src/index.js';
import { MemoryConflictError, MemoryStorageError } from '../../src/shared/errors.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

const TURNS = 200;

/** Turns readable from a database file and its WAL, on copies (SQLite may write the -shm of what it opens). */
function turnsIn(main: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'autopatch-j-read-'));
  copyFileSync(main, join(dir, 'copy.db'));
  if (existsSync(`${main}-wal`)) copyFileSync(`${main}-wal`, join(dir, 'copy.db-wal'));
  const db = new Database(join(dir, 'copy.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM turns').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function damagedTemplate(): Promise<string> {
  const repo = tempRepo('autopatch-j-template-');
  const child = spawn(process.execPath, [join(FIXTURES, 'wal-damage.mjs'), repo, String(TURNS)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const result = await collect(child, 60_000);
  expect(result.signal, result.stderr).toBe('SIGKILL');
  expect(existsSync(join(repo, '.autopatch-j', 'memory.db-wal'))).toBe(true);
  return repo;
}

describe('a clear of a degraded Memory is one unit (issue "Safe hands", item 6)', () => {
  it('kill -9 at every rename: never a healthy empty Memory while the old data sits aside unannounced; the next start says where it is', async () => {
    const template = await damagedTemplate();
    // The damage and the 200 turns are in the WAL: the main file alone would look healthy and empty.
    expect(turnsIn(join(template, '.autopatch-j', 'memory.db'))).toBe(TURNS);
    const points = [
      'clear:journal',
      'clear:rename:0',
      'clear:rename:1',
      'clear:rename:2',
      'clear:rename:new',
      'clear:journal-removal',
      'none',
    ];
    const outcomes: string[] = [];
    for (const point of points) {
      const repo = tempRepo();
      cpSync(join(template, '.autopatch-j'), join(repo, '.autopatch-j'), { recursive: true });
      const child = spawn(process.execPath, [CLI_PATH, 'memory', 'clear', '--confirm', '--repo', repo], {
        env: { PATH: process.env.PATH ?? '', HOME: '/tmp', AUTOPATCH_TEST_CRASH_AT: point },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const cleared = await collect(child, 60_000);
      if (point === 'none') expect(cleared.code, cleared.stderr).toBe(0);
      else expect(cleared.signal, `${point}: ${cleared.stdout}${cleared.stderr}`).toBe('SIGKILL');

      // The next start.
      const next = await runCli(['memory', 'status', '--json', '--repo', repo]);
      const status = JSON.parse(next.stdout) as { health: string; warnings: string[]; turns: { completed: number } };
      const aside = readdirSync(join(repo, '.autopatch-j')).filter((n) => /^memory\.db\.damaged-[^-]+Z$/.test(n));
      if (status.health === 'healthy') {
        expect(status.turns.completed, point).toBe(0);
        // Healthy and empty only with the old data aside, complete, and the start saying where it is.
        expect(aside, point).toHaveLength(1);
        expect(turnsIn(join(repo, '.autopatch-j', aside[0]!)), point).toBe(TURNS);
        if (point !== 'none') {
          const where = join(repo, '.autopatch-j', aside[0]!);
          expect(next.stderr, point).toContain(
            `memory: a clear was interrupted (a crash) and was finished at this start: the damaged database is at ${where}`,
          );
          expect(status.warnings.join('\n'), point).toContain(where);
        }
        outcomes.push(`${point}: finished`);
      } else {
        // Still degraded: the old files are where they were, whole.
        expect(aside, point).toEqual([]);
        expect(turnsIn(join(repo, '.autopatch-j', 'memory.db')), point).toBe(TURNS);
        outcomes.push(`${point}: as before`);
      }
      expect(
        readdirSync(join(repo, '.autopatch-j')).filter((n) => n.startsWith('.memory.db.new-') || n === 'clear-journal.json'),
        point,
      ).toEqual([]);
    }
    console.log(outcomes.join('\n'));
    expect(outcomes.filter((o) => o.endsWith('finished')).length).toBeGreaterThanOrEqual(points.length - 1);
  }, 180_000);

  it('kill -9 during memory export leaves no temp file after the next start (M-10.4)', async () => {
    const repo = tempRepo();
    await MemoryManager.open({ repoRoot: repo }).close();
    // About 40 MB of RAW turns, so an export takes long enough to be killed in the middle.
    withRawDb(dbPathOf(repo), (db) => {
      const thread = (db.prepare("SELECT id FROM threads WHERE status = 'active'").get() as { id: string }).id;
      const insert = db.prepare(
        `INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
         VALUES (?, ?, ?, 'general_chat', ?, 'ok', 'completed', 1, 1, 1)`,
      );
      const text = '解析器 parser '.repeat(2_000);
      db.transaction(() => {
        for (let k = 1; k <= 2_000; k += 1) insert.run(`turn-${k}`, thread, k, text);
      })();
    });
    const temps = (): string[] => {
      try {
        return readdirSync(join(repo, '.autopatch-j', 'exports')).filter((n) => n.endsWith('.tmp'));
      } catch {
        return [];
      }
    };
    let killedMidWrite = 0;
    for (let run = 0; run < 6; run += 1) {
      const child = spawn(process.execPath, [CLI_PATH, 'memory', 'export', '--repo', repo], { stdio: ['ignore', 'pipe', 'pipe'] });
      const done = collect(child, 60_000);
      // Each start removes the temp files of exports whose process is gone; this one's carries its pid.
      const own = (): boolean => temps().some((n) => n.startsWith(`.memory-export-${child.pid}-`));
      for (let i = 0; i < 400 && !own(); i += 1) await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGKILL');
      await done;
      if (own()) killedMidWrite += 1;
    }
    expect(killedMidWrite).toBeGreaterThan(3);
    expect(temps().length).toBeGreaterThan(0);
    await runCli(['memory', 'status', '--repo', repo]);
    expect(temps()).toEqual([]);
  }, 120_000);
});

describe('a clear still running in another process (M-10.3, issue 22: errors by meaning)', () => {
  it('opening meanwhile is a retryable conflict, not a storage error, and touches nothing', async () => {
    const repo = tempRepo();
    await MemoryManager.open({ repoRoot: repo }).close();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const journal = join(repo, '.autopatch-j', 'clear-journal.json');
      const body = JSON.stringify({
        format: 'autopatch-j-clear',
        version: 1,
        pid: sleeper.pid,
        temp: '.memory.db.new-test',
        aside: 'memory.db.damaged-20261201T120000000Z',
        moves: [''],
      });
      writeFileSync(journal, body);
      let thrown: unknown;
      try {
        MemoryManager.open({ repoRoot: repo });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MemoryConflictError);
      expect(thrown).not.toBeInstanceOf(MemoryStorageError);
      expect((thrown as MemoryConflictError).retryable).toBe(true);
      expect(String((thrown as Error).message)).toMatch(new RegExp(`running in process ${sleeper.pid}; try again`));
      // The command line says it in one line and exits 1, like a storage failure.
      const cli = await runCli(['memory', 'list', '--repo', repo]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(`a clear of this Memory is running in process ${sleeper.pid}; try again in a moment`);
      expect(cli.stderr).not.toMatch(/\n\s+at /u);
      expect(readFileSync(journal, 'utf8')).toBe(body);
      expect(existsSync(dbPathOf(repo))).toBe(true);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
