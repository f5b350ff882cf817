import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MemoryManager, MemoryStorageError } from '../../src/index.js';
import { writeExportFile, type ExportSnapshot } from '../../src/memory/lifecycle/export.js';
import { runFixture } from '../helpers/child.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

function seedTurns(memory: MemoryManager, n: number): void {
  for (let i = 0; i < n; i += 1) {
    const h = memory.beginTurn({ intent: 'general_chat', userText: `question ${i} 问题` });
    memory.completeTurn(h, `answer ${i}`);
  }
}

describe('export (M-10.4)', () => {
  it('8 concurrent exports with the same timestamp: 8 distinct complete files, no leftovers', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    seedTurns(memory, 5);
    await memory.close();
    const now = '1800000000000';
    const results = await Promise.all(Array.from({ length: 8 }, () => runFixture('exporter.mjs', [repo, now])));
    const paths = results.map((r) => {
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { path: string }).path;
    });
    expect(new Set(paths).size).toBe(8);
    const dir = join(repo, '.autopatch-j', 'exports');
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(8);
    expect(files.every((f) => /^memory-export-20270115T080000000Z(-\d+)?\.json$/.test(f))).toBe(true);
    for (const file of files) {
      const snapshot = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ExportSnapshot;
      expect(snapshot.format).toBe('autopatch-j-memory-export');
      expect(snapshot.tables['turns']).toHaveLength(5);
      expect(snapshot.tables['memory_jobs']).toHaveLength(5);
      expect(Object.keys(snapshot.tables)).toEqual([
        'memory_meta',
        'threads',
        'turns',
        'memory_jobs',
        'memory_candidates',
        'candidate_sources',
        'memory_items',
        'memory_item_candidates',
      ]);
    }
  });

  it('never overwrites an older export and keeps the persisted last error as audit content', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const memory = openMemory({ repoRoot: repo, now: clock.now });
    withRawDb(dbPathOf(repo), (db) => db.prepare("UPDATE memory_meta SET last_error = 'HTTP 500: <b>boom</b>'").run());
    const first = memory.export();
    const second = memory.export();
    expect(second.path).not.toBe(first.path);
    const snapshot = JSON.parse(readFileSync(first.path, 'utf8')) as ExportSnapshot;
    expect((snapshot.tables['memory_meta'] as { last_error: string }[])[0]!.last_error).toBe('HTTP 500: <b>boom</b>');
  });

  it('a short write is an error and leaves no temp file behind (every write is counted)', () => {
    const repo = tempRepo();
    const dir = join(repo, 'exports');
    let calls = 0;
    // The first write stores half of what it was given, the second stores nothing: a full disk.
    const write = (fd: number, buffer: Buffer, offset: number, length: number): number => {
      calls += 1;
      if (calls > 1) return 0;
      return writeSync(fd, buffer, offset, Math.ceil(length / 2));
    };
    expect(() => writeExportFile(dir, 1_800_000_000_000, (sink) => sink.text('x'.repeat(5000)), { write })).toThrow(MemoryStorageError);
    expect(calls).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a failing body leaves no temp file behind', () => {
    const repo = tempRepo();
    const dir = join(repo, 'exports');
    expect(() =>
      writeExportFile(dir, 1_800_000_000_000, (sink) => {
        sink.text('{');
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_READ' });
      }),
    ).toThrow(MemoryStorageError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('works while degraded and says so in the snapshot', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    seedTurns(memory, 2);
    await memory.close();
    withRawDb(dbPathOf(repo), (db) => db.exec('CREATE TABLE foo (x)'));
    const degraded = openMemory({ repoRoot: repo });
    const result = degraded.export();
    const snapshot = JSON.parse(readFileSync(result.path, 'utf8')) as ExportSnapshot;
    expect(snapshot.health).toBe('degraded');
    expect(snapshot.degradedReason).toMatch(/unknown table foo/);
    expect(snapshot.tables['turns']).toHaveLength(2);
  });
});

describe('export of a file SQLite cannot read', () => {
  it('keeps the bytes (base64) with their hash, so a following clear loses nothing', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.autopatch-j'), { recursive: true });
    const garbage = Buffer.from('definitely not sqlite '.repeat(100));
    writeFileSync(dbPathOf(repo), garbage);
    const memory = openMemory({ repoRoot: repo });
    const result = memory.export();
    const snapshot = JSON.parse(readFileSync(result.path, 'utf8')) as ExportSnapshot;
    expect(snapshot).toMatchObject({ health: 'degraded', degradedReason: 'file is not a database' });
    expect(Buffer.from(snapshot.unreadableFile!.base64, 'base64').equals(garbage)).toBe(true);
    memory.clear();
    expect(existsSync(result.path)).toBe(true);
  });
});

describe('clear (M-10.3)', () => {
  it('on a healthy database: new generation, created_at kept, errors cleared, one empty active thread, exports kept', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const memory = openMemory({ repoRoot: repo, now: clock.now });
    const createdAt = memory.status().createdAt;
    seedTurns(memory, 3);
    const exported = memory.export();
    mkdirSync(join(repo, '.autopatch-j'), { recursive: true });
    writeFileSync(join(repo, '.autopatch-j', 'cli_history'), 'hello\n');
    withRawDb(dbPathOf(repo), (db) => {
      db.prepare("UPDATE memory_meta SET last_error = 'boom', last_succeeded_at = 5").run();
      db.prepare('UPDATE memory_jobs SET generation = 4').run();
    });
    const oldThread = memory.status().activeThreadId;
    clock.advance(10_000);
    const result = memory.clear();
    expect(result.recreated).toBe(false);
    expect(result.generation).toBe(5); // max(meta 1, jobs 4, 0) + 1
    const status = memory.status();
    expect(status.generation).toBe(5);
    expect(status.createdAt).toBe(createdAt);
    expect(status.lastError).toBeNull();
    expect(status.lastSucceededAt).toBeNull();
    expect(status.activeThreadId).not.toBe(oldThread);
    expect(status.turns).toEqual({ open: 0, completed: 0, failed: 0, interrupted: 0 });
    expect(status.jobs.pending).toBe(0);
    expect(existsSync(exported.path)).toBe(true);
    expect(readFileSync(join(repo, '.autopatch-j', 'cli_history'), 'utf8')).toBe('hello\n');
    const h = memory.beginTurn({ intent: 'general_chat', userText: 'after clear' });
    expect(h.sequence).toBe(1);
  });

  it('on a degraded schema: recreates the files, generation from the old meta and jobs', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    seedTurns(memory, 2);
    const createdAt = memory.status().createdAt;
    await memory.close();
    withRawDb(dbPathOf(repo), (db) => {
      db.prepare('UPDATE memory_jobs SET generation = 7').run();
      db.exec('DROP INDEX turns_thread_sequence');
    });
    const degraded = openMemory({ repoRoot: repo });
    expect(degraded.status().health).toBe('degraded');
    const result = degraded.clear();
    expect(result).toMatchObject({ recreated: true, generation: 8, createdAt });
    expect(degraded.status()).toMatchObject({ health: 'healthy', generation: 8, createdAt });
    await degraded.close();
    const reopened = openMemory({ repoRoot: repo });
    expect(reopened.status()).toMatchObject({ health: 'healthy', generation: 8, activeThreadId: result.threadId });
  });

  it('on a file that is not a database: generation 1, created_at now', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    mkdirSync(join(repo, '.autopatch-j'), { recursive: true });
    writeFileSync(dbPathOf(repo), 'garbage '.repeat(1000));
    const memory = openMemory({ repoRoot: repo, now: clock.now });
    expect(memory.status().degradedReason).toBe('file is not a database');
    expect(memory.clear()).toMatchObject({ recreated: true, generation: 1, createdAt: clock.value });
  });

  it('with only the active thread missing: clears in place and rebuilds it', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    seedTurns(memory, 1);
    await memory.close();
    withRawDb(dbPathOf(repo), (db) => db.exec("UPDATE threads SET status = 'archived', archived_at = 1"));
    const degraded = openMemory({ repoRoot: repo });
    expect(degraded.status().degradedReason).toBe('no active thread');
    expect(degraded.clear()).toMatchObject({ recreated: false, generation: 2 });
    expect(degraded.status().health).toBe('healthy');
  });
});
