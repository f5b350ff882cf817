import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryLeaseError, MemoryManager, MemorySchemaError, MemoryStorageError } from '../../src/index.js';
import { replaceDamagedDatabase } from '../../src/memory/lifecycle/clear.js';
import { startFixture } from '../helpers/processes.js';
import { dbPathOf, sha256, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

function seedTurns(memory: MemoryManager, n: number, label = 'turn'): void {
  for (let i = 0; i < n; i += 1) {
    const h = memory.beginTurn({ intent: 'general_chat', userText: `${label} ${i} 问题` });
    memory.completeTurn(h, `answer ${i}`);
  }
}

async function healthyRepo(turns = 3): Promise<string> {
  const repo = tempRepo();
  const memory = MemoryManager.open({ repoRoot: repo });
  seedTurns(memory, turns);
  await memory.close();
  return repo;
}

/**
 * Runs SQL on the database in a separate process that is killed before it closes, so its WAL and shared
 * memory file stay behind exactly as after a crash.
 */
function crashAfter(dbPath: string, sql: string): void {
  const script = `
    import Database from 'better-sqlite3';
    const db = new Database(${JSON.stringify(dbPath)});
    db.pragma('wal_autocheckpoint = 0');
    db.exec(${JSON.stringify(sql)});
    process.kill(process.pid, 'SIGKILL');`;
  spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() });
}

/** Name → SHA-256 of every file of the data folder except exports (a degraded export may add one). */
function dataFiles(repo: string): Record<string, string> {
  const dir = join(repo, '.autopatch-j');
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (name === 'exports') continue;
    out[name] = statSync(join(dir, name)).isFile() ? sha256(join(dir, name)) : 'folder';
  }
  return out;
}

describe('a degraded open is read-only: every file stays byte-identical (M-2.3)', () => {
  const variants: { name: string; damage: (repo: string) => void; reason: RegExp }[] = [
    {
      name: 'unknown table, written by a writer that crashed (WAL and -shm present)',
      damage: (repo) => crashAfter(dbPathOf(repo), "CREATE TABLE foo (x); INSERT INTO foo VALUES ('kept in the WAL');"),
      reason: /unknown table foo/,
    },
    {
      name: 'missing index, WAL present',
      damage: (repo) => crashAfter(dbPathOf(repo), 'DROP INDEX turns_thread_sequence;'),
      reason: /turns_thread_sequence missing/,
    },
    {
      name: 'other user_version, WAL present',
      damage: (repo) => crashAfter(dbPathOf(repo), 'PRAGMA user_version = 3;'),
      reason: /user_version 3/,
    },
    {
      name: 'missing index, closed cleanly (no side files)',
      damage: (repo) => withRawDb(dbPathOf(repo), (db) => db.exec('DROP INDEX turns_thread_sequence')),
      reason: /turns_thread_sequence missing/,
    },
    {
      name: 'truncated file',
      damage: (repo) => truncateSync(dbPathOf(repo), 3 * 4096 + 100),
      reason: /malformed|quick_check|not a database|missing/,
    },
    {
      name: 'not a database',
      damage: (repo) => writeFileSync(dbPathOf(repo), 'not sqlite at all '.repeat(500)),
      reason: /file is not a database/,
    },
  ];
  for (const variant of variants) {
    it(`${variant.name}: status, show, export and close change nothing`, async () => {
      const repo = await healthyRepo();
      variant.damage(repo);
      const before = dataFiles(repo);
      const memory = openMemory({ repoRoot: repo });
      const status = memory.status();
      expect(status.health).toBe('degraded');
      expect(status.degradedReason).toMatch(variant.reason);
      expect(() => memory.show('mem-nothing')).toThrow();
      expect(() => memory.beginTurn({ intent: 'general_chat', userText: 'x' })).toThrow(MemorySchemaError);
      memory.export();
      await memory.close();
      expect(dataFiles(repo)).toEqual(before);
    });
  }

  it('a degraded export still sees the rows that were only in the WAL', async () => {
    const repo = await healthyRepo(2);
    crashAfter(
      dbPathOf(repo),
      "CREATE TABLE foo (x); INSERT INTO turns SELECT 'late', thread_id, 99, intent, 'only in the WAL', assistant_text, state, scope_paths, NULL, NULL, failure, created_at, updated_at, finished_at FROM turns LIMIT 1;",
    );
    const memory = openMemory({ repoRoot: repo });
    const exported = JSON.parse(readFileSync(memory.export().path, 'utf8')) as { tables: { turns: { user_text: string }[] } };
    expect(exported.tables.turns.map((t) => t.user_text)).toContain('only in the WAL');
  });
});

describe('clear never deletes a damaged database: it moves it aside (M-10.3)', () => {
  it('a broken schema is replaced by a new file and kept as memory.db.damaged-<timestamp>, with its WAL', async () => {
    const repo = await healthyRepo(4);
    crashAfter(dbPathOf(repo), 'DROP INDEX turns_thread_sequence;');
    const mainHash = sha256(dbPathOf(repo));
    const walHash = sha256(`${dbPathOf(repo)}-wal`);
    const memory = openMemory({ repoRoot: repo });
    const result = memory.clear();
    expect(result.recreated).toBe(true);
    expect(result.movedAside).toMatch(/memory\.db\.damaged-\d{8}T\d{9}Z$/);
    expect(sha256(result.movedAside!)).toBe(mainHash);
    expect(sha256(`${result.movedAside!}-wal`)).toBe(walHash);
    expect(memory.status()).toMatchObject({ health: 'healthy', turns: { completed: 0 } });
    await memory.close();
    // The moved file still holds the four turns.
    withRawDb(result.movedAside!, (db) => expect(db.prepare('SELECT count(*) AS n FROM turns').get()).toEqual({ n: 4 }));
  });

  it('a failure while the replacement is built leaves the old files exactly as they were, and no temp file', async () => {
    const repo = await healthyRepo(2);
    withRawDb(dbPathOf(repo), (db) => db.exec('DROP INDEX turns_thread_sequence'));
    const before = dataFiles(repo);
    expect(() =>
      replaceDamagedDatabase(dbPathOf(repo), Date.now(), (temp) => {
        writeFileSync(temp, 'half built');
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }),
    ).toThrow(MemoryStorageError);
    expect(dataFiles(repo)).toEqual(before);
  });
});

describe('cannot open is a storage error, never degraded, never a reason to clear', () => {
  it('a database locked exclusively by another process: MemoryStorageError (SQLITE_BUSY), file untouched', async () => {
    const repo = await healthyRepo(5);
    const hash = sha256(dbPathOf(repo));
    const holder = startFixture('lock-holder.mjs', [dbPathOf(repo), 'exclusive']);
    expect(await holder.nextLine()).toBe('locked');
    let thrown: unknown;
    try {
      MemoryManager.open({ repoRoot: repo, busyTimeoutMs: 50 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MemoryStorageError);
    expect((thrown as MemoryStorageError).code).toMatch(/^SQLITE_BUSY/);
    expect((thrown as MemoryStorageError).message).not.toMatch(/clear/);
    holder.child.kill('SIGKILL');
    expect(sha256(dbPathOf(repo))).toBe(hash);
  });

  it('.autopatch-j, memory.db or a side file as a symbolic link is never followed (not used, issue "Safe hands"), nothing is created outside', async () => {
    const outside = tempRepo('autopatch-j-outside-');
    const repo = tempRepo();
    symlinkSync(outside, join(repo, '.autopatch-j'));
    const linked = (root: string): string | null => {
      const memory = openMemory({ repoRoot: root });
      const reason = memory.status().degradedReason;
      void memory.close();
      return reason;
    };
    expect(linked(repo)).toMatch(/^untrusted data folder: .*\.autopatch-j is a symbolic link/);
    expect(readdirSync(outside)).toEqual([]);

    const repo2 = tempRepo();
    mkdirSync(join(repo2, '.autopatch-j'));
    symlinkSync(join(outside, 'elsewhere.db'), dbPathOf(repo2));
    expect(linked(repo2)).toMatch(/memory\.db is a symbolic link/);
    expect(readdirSync(outside)).toEqual([]);

    const repo3 = await healthyRepo(1);
    const hash = sha256(dbPathOf(repo3));
    symlinkSync(join(outside, 'wal'), `${dbPathOf(repo3)}-wal`);
    expect(linked(repo3)).toMatch(/memory\.db-wal is a symbolic link/);
    expect(readdirSync(outside)).toEqual([]);
    expect(sha256(dbPathOf(repo3))).toBe(hash);
  });

  it('.autopatch-j as a file is a storage error', () => {
    const repo = tempRepo();
    writeFileSync(join(repo, '.autopatch-j'), 'a file');
    expect(() => MemoryManager.open({ repoRoot: repo })).toThrow(MemoryStorageError);
  });

  it('creates .autopatch-j 0700 and memory.db (with -wal/-shm) 0600 under umask 022', async () => {
    const repo = tempRepo();
    const old = process.umask(0o022);
    try {
      const memory = openMemory({ repoRoot: repo });
      seedTurns(memory, 1);
      const mode = (path: string): number => statSync(path).mode & 0o777;
      expect(mode(join(repo, '.autopatch-j'))).toBe(0o700);
      expect(mode(dbPathOf(repo))).toBe(0o600);
      expect(mode(`${dbPathOf(repo)}-wal`)).toBe(0o600);
      expect(mode(`${dbPathOf(repo)}-shm`)).toBe(0o600);
      const exported = memory.export();
      expect(mode(join(repo, '.autopatch-j', 'exports'))).toBe(0o700);
      expect(mode(exported.path)).toBe(0o600);
      await memory.close();
    } finally {
      process.umask(old);
    }
  });
});

describe('typed errors and lock behaviour of the public methods (M-2.7)', () => {
  it('beginTurn, completeTurn and clear behind another writer fail with MemoryStorageError, not a raw SqliteError', async () => {
    const repo = await healthyRepo(1);
    const memory = openMemory({ repoRoot: repo, busyTimeoutMs: 20 });
    const open = memory.beginTurn({ intent: 'general_chat', userText: 'started before the lock' });
    const holder = startFixture('lock-holder.mjs', [dbPathOf(repo), 'write']);
    expect(await holder.nextLine()).toBe('locked');
    for (const write of [
      () => memory.beginTurn({ intent: 'general_chat', userText: 'x' }),
      () => memory.completeTurn(open, 'y'),
      () => memory.clear(),
    ]) {
      let thrown: unknown;
      try {
        write();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MemoryStorageError);
      expect((thrown as MemoryStorageError).fix).toMatch(/another autopatch-j process/);
    }
    holder.child.kill('SIGKILL');
  });

  it('a read-only open waits for no writer: nothing is written at startup when nothing expired', async () => {
    const repo = await healthyRepo(2);
    const holder = startFixture('lock-holder.mjs', [dbPathOf(repo), 'write']);
    expect(await holder.nextLine()).toBe('locked');
    // A zero busy timeout turns any attempt to write into an immediate failure, which status would report.
    const memory = openMemory({ repoRoot: repo, busyTimeoutMs: 0 });
    const status = memory.status();
    expect(status.health).toBe('healthy');
    expect(status.warnings).toEqual([]);
    expect(status.turns.completed).toBe(2);
    memory.export();
  });

  it('expired leases behind a writer: recovery is deferred to the first write, then done', async () => {
    const repo = await healthyRepo(1);
    let now = 1_900_000_000_000;
    const first = openMemory({ repoRoot: repo, now: () => now, workerId: 'gone' });
    first.beginTurn({ intent: 'general_chat', userText: 'left open by a process that died' });
    await first.close();
    now += 10 * 60_000;
    const holder = startFixture('lock-holder.mjs', [dbPathOf(repo), 'write']);
    expect(await holder.nextLine()).toBe('locked');
    const memory = openMemory({ repoRoot: repo, now: () => now, busyTimeoutMs: 0 });
    expect(memory.status().warnings.join('\n')).toMatch(/startup recovery deferred/);
    holder.child.kill('SIGKILL');
    await new Promise((resolve) => holder.child.once('close', resolve));
    memory.beginTurn({ intent: 'general_chat', userText: 'first write' });
    expect(memory.status().turns).toMatchObject({ interrupted: 1, open: 1 });
  });
});

describe('a clear that replaces the file under a live session (two processes)', () => {
  it('the live process notices the new file at its next write and fails it with MemoryLeaseError; no acknowledged turn goes to the old file', async () => {
    const repo = await healthyRepo(2);
    const live = startFixture('live-session.mjs', [repo]);
    expect(await live.nextLine()).toBe('ready');
    // The schema breaks under the live session; a second process sees it degraded and clears it.
    withRawDb(dbPathOf(repo), (db) => db.exec('DROP INDEX turns_thread_sequence'));
    const clearing = openMemory({ repoRoot: repo });
    expect(clearing.status().health).toBe('degraded');
    const cleared = clearing.clear();
    expect(cleared.recreated).toBe(true);
    await clearing.close();
    live.send('after the clear');
    expect(JSON.parse(await live.nextLine())).toEqual({ complete: 'MemoryLeaseError', begin: 'MemoryLeaseError' });
    live.send('again');
    expect(JSON.parse(await live.nextLine())).toEqual({ complete: 'MemoryLeaseError', begin: 'MemoryLeaseError' });
    withRawDb(cleared.movedAside!, (db) => {
      expect(db.prepare("SELECT count(*) AS n FROM turns WHERE user_text IN ('after the clear', 'again')").get()).toEqual({ n: 0 });
    });
    withRawDb(dbPathOf(repo), (db) => expect(db.prepare('SELECT count(*) AS n FROM turns').get()).toEqual({ n: 0 }));
    expect(MemoryLeaseError.name).toBe('MemoryLeaseError');
  });
});

describe('private working files', () => {
  it('no verification folder is left after opens, and those of dead processes are removed', async () => {
    const repo = await healthyRepo(1);
    const dir = join(repo, '.autopatch-j');
    // Left by processes that crashed mid-verification or mid-clear (pid 4194303 is not running here).
    mkdirSync(join(dir, '.verify-4194303-abc'));
    writeFileSync(join(dir, '.verify-4194303-abc', 'memory.db'), 'x');
    writeFileSync(join(dir, '.memory.db.new-4194303-xyz'), 'half built');
    const workFiles = (): string[] => readdirSync(dir).filter((n) => n.startsWith('.verify-') || n.startsWith('.memory.db.new-'));
    expect(workFiles()).toHaveLength(2);
    const memory = openMemory({ repoRoot: repo });
    expect(workFiles()).toEqual([]);
    await memory.close();
    expect(workFiles()).toEqual([]);
    expect(existsSync(dbPathOf(repo))).toBe(true);
  });
});
