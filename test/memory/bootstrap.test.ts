import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MemoryManager, MemorySchemaError } from '../../src/index.js';
import { ManualClock, dbPathOf, journalModeOnDisk, sha256, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

async function healthyRepo(): Promise<{ repo: string; db: string; threadId: string }> {
  const repo = tempRepo();
  const memory = MemoryManager.open({ repoRoot: repo });
  const threadId = memory.status().activeThreadId!;
  await memory.close();
  return { repo, db: dbPathOf(repo), threadId };
}

/** Opens a manager on a broken database and checks it is degraded and left byte-for-byte as it was. */
async function expectDegraded(repo: string, reason: RegExp): Promise<MemoryManager> {
  const db = dbPathOf(repo);
  const hashBefore = sha256(db);
  const modeBefore = journalModeOnDisk(db);
  const memory = MemoryManager.open({ repoRoot: repo });
  const status = memory.status();
  expect(status.health).toBe('degraded');
  expect(status.degradedReason).toMatch(reason);
  expect(memory.health()).toEqual({ health: 'degraded', degradedReason: status.degradedReason });
  // What the snapshot can say about unfinished jobs, as status() says it.
  const { pending, leased, retryWait, failed } = status.jobs;
  expect(memory.openJobs()).toEqual({ pending, leased, retryWait, failed });
  await memory.close();
  expect(sha256(db)).toBe(hashBefore);
  expect(journalModeOnDisk(db)).toBe(modeBefore);
  return memory;
}

describe('the data folder', () => {
  it('ignores itself in git whoever opens Memory first (a library user here), and an existing .gitignore is kept', async () => {
    const repo = tempRepo();
    await MemoryManager.open({ repoRoot: repo }).close();
    const ignore = join(repo, '.autopatch-j', '.gitignore');
    expect(readFileSync(ignore, 'utf8')).toMatch(/^\*$/m);
    writeFileSync(ignore, 'memory.db\n');
    await MemoryManager.open({ repoRoot: repo }).close();
    expect(readFileSync(ignore, 'utf8')).toBe('memory.db\n');
    // A dangling link in its place is not followed: nothing is written where it points.
    const other = tempRepo();
    await MemoryManager.open({ repoRoot: other }).close();
    const linked = join(other, '.autopatch-j', '.gitignore');
    rmSync(linked);
    symlinkSync(join(other, 'outside.txt'), linked);
    await MemoryManager.open({ repoRoot: other }).close();
    expect(existsSync(join(other, 'outside.txt'))).toBe(false);
  });
});

describe('bootstrap (M-2.2, M-2.3)', () => {
  it('creates schema, meta and exactly one active thread, then switches to WAL', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    const status = memory.status();
    expect(status.health).toBe('healthy');
    expect(status.schemaVersion).toBe(2);
    expect(status.generation).toBe(1);
    expect(status.activeThreadId).toMatch(/^t-/);
    await memory.close();
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.prepare("SELECT count(*) AS n FROM threads WHERE status = 'active'").get()).toEqual({ n: 1 });
      expect(db.prepare('SELECT count(*) AS n FROM memory_meta').get()).toEqual({ n: 1 });
    });
  });

  it('restart verifies and reuses the active thread without writing (M-3.1)', async () => {
    const { repo, db, threadId } = await healthyRepo();
    const hash = sha256(db);
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status().activeThreadId).toBe(threadId);
    await memory.close();
    expect(sha256(db)).toBe(hash);
  });

  it('the schema enforces one active thread and unique turn sequences (M-2.1)', async () => {
    const { db } = await healthyRepo();
    withRawDb(db, (raw) => {
      expect(() => raw.prepare("INSERT INTO threads (id, status, created_at, updated_at) VALUES ('t-2', 'active', 1, 1)").run()).toThrow(
        /UNIQUE/,
      );
      const thread = (raw.prepare("SELECT id FROM threads WHERE status = 'active'").get() as { id: string }).id;
      const insert = raw.prepare(
        "INSERT INTO turns (id, thread_id, sequence, intent, user_text, state, lease_owner, lease_expires_at, created_at, updated_at) VALUES (?, ?, 1, 'general_chat', 'x', 'open', 'w', 1, 1, 1)",
      );
      insert.run('turn-a', thread);
      expect(() => insert.run('turn-b', thread)).toThrow(/UNIQUE/);
      expect(() => raw.prepare("UPDATE turns SET user_text = 'changed' WHERE id = 'turn-a'").run()).toThrow(/immutable/);
      expect(() =>
        raw
          .prepare(
            "INSERT INTO turns (id, thread_id, sequence, intent, user_text, state, created_at, updated_at, finished_at) VALUES ('turn-c', ?, 2, 'code_audit', 'x', 'failed', 1, 1, 1)",
          )
          .run(thread),
      ).toThrow(/CHECK/);
    });
  });

  it('a user_version = 0 database without schema objects is initialized', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.autopatch-j'), { recursive: true });
    withRawDb(dbPathOf(repo), (db) => db.pragma('user_version = 0'));
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status().health).toBe('healthy');
    await memory.close();
    const empty = tempRepo();
    mkdirSync(join(empty, '.autopatch-j'), { recursive: true });
    writeFileSync(dbPathOf(empty), '');
    const second = openMemory({ repoRoot: empty });
    expect(second.status().health).toBe('healthy');
  });

  it('a user_version = 0 database holding a user table is degraded, not initialized', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.autopatch-j'), { recursive: true });
    withRawDb(dbPathOf(repo), (db) => db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')"));
    expect(journalModeOnDisk(dbPathOf(repo))).toBe('rollback');
    await expectDegraded(repo, /user_version 0 \(holds table notes\)/);
    withRawDb(dbPathOf(repo), (db) => expect(db.prepare('SELECT body FROM notes').get()).toEqual({ body: 'keep me' }));
  });

  it('M-2.6: a legacy memory.json is deleted unread on first initialization', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.autopatch-j'), { recursive: true });
    writeFileSync(join(repo, '.autopatch-j', 'memory.json'), '{"legacy": true}');
    const memory = openMemory({ repoRoot: repo });
    expect(existsSync(join(repo, '.autopatch-j', 'memory.json'))).toBe(false);
    expect(memory.status().warnings).toEqual([]);
  });

  it('M-2.6: a legacy memory.json that cannot be deleted is reported, and Memory still opens', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.autopatch-j', 'memory.json'), { recursive: true });
    writeFileSync(join(repo, '.autopatch-j', 'memory.json', 'x'), 'not a file we delete');
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status().health).toBe('healthy');
    expect(memory.status().warnings).toEqual([expect.stringMatching(/^could not delete legacy .*memory\.json: /)]);
  });
});

describe('degraded causes leave the file and its journal mode unchanged (M-2.3, M-2.4)', () => {
  const cases: { name: string; reason: RegExp; breakIt: (db: Database.Database, threadId: string) => void }[] = [
    {
      name: 'a dropped index',
      reason: /index turns_thread_sequence missing/,
      breakIt: (db) => db.exec('DROP INDEX turns_thread_sequence'),
    },
    { name: 'another user_version', reason: /^user_version 3/, breakIt: (db) => db.pragma('user_version = 3') },
    { name: 'an unknown table', reason: /unknown table foo/, breakIt: (db) => db.exec('CREATE TABLE foo (x)') },
    { name: 'a changed table', reason: /table turns differs/, breakIt: (db) => db.exec('ALTER TABLE turns ADD COLUMN extra TEXT') },
    {
      name: 'a dropped trigger',
      reason: /trigger memory_items_append_only missing/,
      breakIt: (db) => db.exec('DROP TRIGGER memory_items_append_only'),
    },
    {
      name: 'a dropped partial unique index',
      reason: /index threads_one_active missing/,
      breakIt: (db) => db.exec('DROP INDEX threads_one_active'),
    },
    { name: 'missing meta', reason: /memory_meta row id=1 missing/, breakIt: (db) => db.exec('DELETE FROM memory_meta') },
    {
      name: 'no active thread',
      reason: /no active thread/,
      breakIt: (db) => db.exec("UPDATE threads SET status = 'archived', archived_at = 1"),
    },
    {
      name: 'a foreign key violation',
      reason: /foreign_key_check found 1 violation\(s\) in turns/,
      breakIt: (db) =>
        db.exec(
          "PRAGMA foreign_keys = OFF; INSERT INTO turns (id, thread_id, sequence, intent, user_text, state, created_at, updated_at, finished_at, assistant_text) VALUES ('turn-x', 't-missing', 1, 'general_chat', 'x', 'completed', 1, 1, 1, 'y')",
        ),
    },
  ];

  for (const c of cases) {
    it(`${c.name} → degraded`, async () => {
      const { repo, db, threadId } = await healthyRepo();
      withRawDb(db, (raw) => c.breakIt(raw, threadId));
      await expectDegraded(repo, c.reason);
    });
  }

  it('the same checks hold for a database in rollback-journal mode: WAL is not switched on', async () => {
    const { repo, db } = await healthyRepo();
    withRawDb(db, (raw) => {
      raw.pragma('journal_mode = DELETE');
      raw.exec('CREATE TABLE foo (x)');
    });
    expect(journalModeOnDisk(db)).toBe('rollback');
    await expectDegraded(repo, /unknown table foo/);
  });

  it('a file that is not a database → degraded "file is not a database"', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.autopatch-j'), { recursive: true });
    writeFileSync(dbPathOf(repo), 'this is not sqlite '.repeat(300));
    const hash = sha256(dbPathOf(repo));
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status().degradedReason).toBe('file is not a database');
    await memory.close();
    expect(sha256(dbPathOf(repo))).toBe(hash);
  });

  it('physical corruption → degraded', async () => {
    const { repo, db } = await healthyRepo();
    withRawDb(db, (raw) => {
      const thread = (raw.prepare("SELECT id FROM threads WHERE status='active'").get() as { id: string }).id;
      const insert = raw.prepare(
        "INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at) VALUES (?, ?, ?, 'general_chat', ?, 'a', 'completed', 1, 1, 1)",
      );
      for (let i = 1; i <= 400; i += 1) insert.run(`turn-${i}`, thread, i, 'x'.repeat(500));
      raw.pragma('journal_mode = DELETE');
    });
    const bytes = await import('node:fs').then((fs) => fs.readFileSync(db));
    // Scribble over the middle pages (not the header): b-tree pages become garbage.
    for (let i = 8192; i < 8192 + 16384 && i < bytes.length; i += 1) bytes[i] = (i * 31) & 0xff;
    writeFileSync(db, bytes);
    await expectDegraded(repo, /quick_check failed|malformed|SQLITE_CORRUPT/);
  });
});

describe('the operational guard (M-2.4)', () => {
  it('refuses ordinary work while degraded; status, show, export and clear still work', async () => {
    const { repo, db } = await healthyRepo();
    withRawDb(db, (raw) => raw.exec('CREATE TABLE foo (x)'));
    const memory = openMemory({ repoRoot: repo });
    const handle = { turnId: 'turn-x', threadId: 't-x', sequence: 1 };
    const refused: [string, () => unknown][] = [
      ['beginTurn', () => memory.beginTurn({ intent: 'general_chat', userText: 'hi' })],
      ['history', () => memory.history(handle)],
      ['routingContext', () => memory.routingContext(handle)],
      ['search', () => memory.search(handle, 'x')],
      ['read', () => memory.read(handle, 'm123')],
      ['list', () => memory.list()],
      ['forget', () => memory.forget('m123')],
      ['start', () => memory.start()],
    ];
    for (const [name, call] of refused) expect(call, name).toThrow(MemorySchemaError);
    await expect(memory.newThread()).rejects.toThrow(MemorySchemaError);
    await expect(memory.processDue({ force: true })).rejects.toThrow(MemorySchemaError);
    expect(memory.status().health).toBe('degraded');
    expect(() => memory.show('m123')).toThrow(/No memory/);
    expect(existsSync(memory.export().path)).toBe(true);
    expect(memory.clear().recreated).toBe(true);
    expect(memory.status().health).toBe('healthy');
  });

  it('finds the active thread missing at run time and throws MemorySchemaError', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const memory = openMemory({ repoRoot: repo, now: clock.now });
    withRawDb(dbPathOf(repo), (raw) => raw.exec("UPDATE threads SET status = 'archived', archived_at = 1"));
    expect(() => memory.beginTurn({ intent: 'general_chat', userText: 'hello' })).toThrow(/no active thread/);
    expect(() => memory.list()).toThrow(MemorySchemaError);
  });
});
