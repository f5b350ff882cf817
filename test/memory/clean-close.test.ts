import { createHash } from 'node:crypto';
import { existsSync, openSync, closeSync, readFileSync, statSync, utimesSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { dbPathOf, tempRepo } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

/**
 * M-2.2 at start-up: the physical checks are skipped only for a file unchanged since a verified clean close.
 * A damaged page that keeps size, inode and mtime shows it: skipped while the stamp holds, found otherwise.
 */

async function seeded(): Promise<string> {
  const repo = tempRepo();
  const memory = MemoryManager.open({ repoRoot: repo });
  for (let i = 0; i < 300; i += 1) {
    const h = memory.beginTurn({ intent: 'general_chat', userText: `turn ${i} ${'x'.repeat(200)}` });
    memory.completeTurn(h, 'ok '.repeat(100));
  }
  await memory.close();
  return repo;
}

/** Scribbles over the middle of a table page, keeping the file's size and mtime. */
function damagePageKeepingStamp(path: string): void {
  const before = statSync(path);
  const pageSize = 4096;
  const page = Math.floor(before.size / pageSize) - 2;
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, page * pageSize + 8);
  closeSync(fd);
  utimesSync(path, before.atimeMs / 1000, before.mtimeMs / 1000);
}

describe('M-2.2 physical checks after a verified clean close', () => {
  it('a clean close stamps the file; the next open skips quick_check while the file is unchanged', async () => {
    const repo = await seeded();
    const db = dbPathOf(repo);
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(existsSync(`${db}-verified`)).toBe(true);
    damagePageKeepingStamp(db);
    // Same inode, size and mtime, no WAL: the physical checks are skipped, so the damage is not seen here.
    const skipped = openMemory({ repoRoot: repo });
    expect(skipped.status().degradedReason).toBeNull();
    // An open session forgets the stamp until it closes cleanly.
    expect(existsSync(`${db}-verified`)).toBe(false);
  });

  it('a stamp that vouches for a changed catalog: the in-place open finds it, the snapshot check decides (degraded, file untouched)', async () => {
    const repo = await seeded();
    const db = dbPathOf(repo);
    const before = statSync(db);
    // An outside tool drops an index and puts the size and mtime back: the stamp still matches.
    const outside = new Database(db);
    outside.exec('DROP INDEX turns_open_lease');
    outside.close();
    utimesSync(db, before.atimeMs / 1000, before.mtimeMs / 1000);
    expect(statSync(db).size).toBe(before.size);
    expect(existsSync(`${db}-wal`)).toBe(false);
    const bytes = createHash('sha256').update(readFileSync(db)).digest('hex');
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status()).toMatchObject({ health: 'degraded', degradedReason: expect.stringMatching(/turns_open_lease missing/) });
    await memory.close();
    expect(createHash('sha256').update(readFileSync(db)).digest('hex')).toBe(bytes);
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  it('the same behind a matching stamp in rollback-journal mode: the file is not opened in place, and stays byte-identical and in DELETE mode', async () => {
    const repo = await seeded();
    const db = dbPathOf(repo);
    const before = statSync(db);
    const outside = new Database(db);
    outside.pragma('journal_mode = DELETE');
    outside.exec('DROP INDEX turns_open_lease');
    outside.close();
    utimesSync(db, before.atimeMs / 1000, before.mtimeMs / 1000);
    const bytes = createHash('sha256').update(readFileSync(db)).digest('hex');
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status()).toMatchObject({ health: 'degraded', degradedReason: expect.stringMatching(/turns_open_lease missing/) });
    await memory.close();
    expect(createHash('sha256').update(readFileSync(db)).digest('hex')).toBe(bytes);
    expect([...readFileSync(db).subarray(18, 20)]).toEqual([1, 1]);
    expect(existsSync(`${db}-wal`)).toBe(false);
    // The stamp that lied is gone: the next start does not try the in-place open again.
    expect(existsSync(`${db}-verified`)).toBe(false);
  });

  it('a changed mtime runs the full check and finds the damage (degraded)', async () => {
    const repo = await seeded();
    const db = dbPathOf(repo);
    damagePageKeepingStamp(db);
    const later = new Date(Date.now() + 5_000);
    utimesSync(db, later, later);
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status()).toMatchObject({ health: 'degraded', degradedReason: expect.stringMatching(/quick_check|malformed|corrupt/) });
  });

  it('a WAL left behind (a crash, or a session still open) runs the full check', async () => {
    const repo = await seeded();
    const db = dbPathOf(repo);
    damagePageKeepingStamp(db);
    const other = new Database(db, { readonly: true });
    other.pragma('user_version');
    try {
      expect(existsSync(`${db}-wal`)).toBe(true);
      const memory = openMemory({ repoRoot: repo });
      expect(memory.status().health).toBe('degraded');
      await memory.close();
    } finally {
      other.close();
    }
  });

  it('without a stamp (never closed cleanly) the full check runs', async () => {
    const repo = await seeded();
    const db = dbPathOf(repo);
    damagePageKeepingStamp(db);
    const { rmSync } = await import('node:fs');
    rmSync(`${db}-verified`);
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status().health).toBe('degraded');
  });
});

describe('M-2.2 a session that met damage never stamps the file', () => {
  it('damage found during a session: its close writes no stamp, so the next open runs the full check (degraded)', async () => {
    const repo = await seeded();
    const db = dbPathOf(repo);
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status().health).toBe('healthy');
    // A disk fault while the session runs: every page but the first loses its header, so any read meets it.
    const pages = Math.floor(statSync(db).size / 4096);
    const fd = openSync(db, 'r+');
    for (let page = 1; page < pages; page += 1) writeSync(fd, Buffer.alloc(16, 0xa5), 0, 16, page * 4096);
    closeSync(fd);
    expect(() => memory.export()).toThrow();
    await memory.close();
    expect(existsSync(`${db}-verified`)).toBe(false);
    const again = openMemory({ repoRoot: repo });
    expect(again.status().health).toBe('degraded');
  });
});
