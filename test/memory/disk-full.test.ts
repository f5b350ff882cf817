import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryManager, MemoryStorageError } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { fillDisk, smallFs, smallFsUnavailable } from '../helpers/small-fs.js';
import { dbPathOf, sha256, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

const unavailable = smallFsUnavailable();
if (unavailable !== null) console.log(`[disk-full tests skipped] ${unavailable}`);

function repoOn(fs: string): string {
  const repo = join(fs, 'repo');
  mkdirSync(repo);
  return repo;
}

async function seed(repo: string, n: number, size = 40): Promise<void> {
  const memory = MemoryManager.open({ repoRoot: repo });
  for (let i = 0; i < n; i += 1) {
    const h = memory.beginTurn({ intent: 'general_chat', userText: `turn ${i} ${'说'.repeat(size)}` });
    memory.completeTurn(h, `answer ${i}`);
  }
  await memory.close();
}

function storageErrorOf(fn: () => unknown): MemoryStorageError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(MemoryStorageError);
    return error as MemoryStorageError;
  }
  throw new Error('expected a MemoryStorageError');
}

function completedTurns(repo: string): number {
  return withRawDb(
    dbPathOf(repo),
    (db) => (db.prepare("SELECT count(*) AS n FROM turns WHERE state = 'completed'").get() as { n: number }).n,
  );
}

describe.skipIf(unavailable !== null)('a full disk never loses an acknowledged turn (tmpfs)', () => {
  it('opening on a full disk is a storage error with the fix; status and clear refuse; all 30 turns survive', async () => {
    const fs = smallFs(4096);
    const repo = repoOn(fs);
    await seed(repo, 30);
    const hash = sha256(dbPathOf(repo));
    const filler = fillDisk(fs);
    const error = storageErrorOf(() => MemoryManager.open({ repoRoot: repo }));
    expect(error.fix).toMatch(/free disk space/);
    const status = await runCli(['memory', 'status', '--repo', repo]);
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/free disk space/);
    expect(status.stderr).not.toMatch(/clear --confirm/);
    const clear = await runCli(['memory', 'clear', '--confirm', '--repo', repo]);
    expect(clear.code).toBe(1);
    expect(sha256(dbPathOf(repo))).toBe(hash);
    rmSync(filler);
    expect(completedTurns(repo)).toBe(30);
    const reopened = openMemory({ repoRoot: repo });
    expect(reopened.status()).toMatchObject({ health: 'healthy', turns: { completed: 30 } });
  });

  it('beginTurn and completeTurn on a full disk: MemoryStorageError (SQLITE_FULL); earlier turns intact, the open turn completes after space is freed', async () => {
    const fs = smallFs(4096);
    const repo = repoOn(fs);
    await seed(repo, 5);
    const memory = openMemory({ repoRoot: repo });
    const open = memory.beginTurn({ intent: 'general_chat', userText: 'asked before the disk filled' });
    const filler = fillDisk(fs);
    const begin = storageErrorOf(() => memory.beginTurn({ intent: 'general_chat', userText: 'x'.repeat(200_000) }));
    expect(begin.code).toMatch(/SQLITE_FULL|SQLITE_IOERR/);
    storageErrorOf(() => memory.completeTurn(open, 'y'.repeat(200_000)));
    rmSync(filler);
    memory.completeTurn(open, 'answered after space was freed');
    await memory.close();
    expect(completedTurns(repo)).toBe(6);
  });

  it('an export with little space left fails (exit 1), leaves no file and no temp file', async () => {
    const fs = smallFs(16384);
    const repo = repoOn(fs);
    await seed(repo, 150, 800);
    fillDisk(fs, 64 * 1024);
    const memory = openMemory({ repoRoot: repo });
    storageErrorOf(() => memory.export());
    await memory.close();
    const exports = join(repo, '.autopatch-j', 'exports');
    expect(readdirSync(exports)).toEqual([]);
    const cli = await runCli(['memory', 'export', '--repo', repo]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/export failed/);
    expect(readdirSync(exports)).toEqual([]);
  });

  it('a clear of a damaged database on a full disk fails and leaves the old files exactly as they were', async () => {
    const fs = smallFs(4096);
    const repo = repoOn(fs);
    await seed(repo, 30);
    withRawDb(dbPathOf(repo), (db) => db.exec('DROP INDEX turns_thread_sequence'));
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status().health).toBe('degraded');
    const before = sha256(dbPathOf(repo));
    const filler = fillDisk(fs);
    storageErrorOf(() => memory.clear());
    expect(sha256(dbPathOf(repo))).toBe(before);
    expect(readdirSync(join(repo, '.autopatch-j')).filter((n) => n.startsWith('.memory.db.new') || n.includes('damaged'))).toEqual([]);
    await memory.close();
    rmSync(filler);
    expect(completedTurns(repo)).toBe(30);
  });

  it('a file system mounted read-only: a storage error that says so (exit 1), never degraded; files unchanged', async () => {
    const fs = smallFs(4096);
    const repo = repoOn(fs);
    await seed(repo, 3);
    const hash = sha256(dbPathOf(repo));
    expect(spawnSync('mount', ['-o', 'remount,ro', fs]).status).toBe(0);
    const error = storageErrorOf(() => MemoryManager.open({ repoRoot: repo }));
    expect(error.code).toMatch(/EROFS|SQLITE_READONLY|SQLITE_CANTOPEN/);
    const status = await runCli(['memory', 'status', '--repo', repo]);
    expect(status.code).toBe(1);
    expect(status.stderr).not.toMatch(/degraded|clear --confirm/);
    expect(sha256(dbPathOf(repo))).toBe(hash);
    expect(spawnSync('mount', ['-o', 'remount,rw', fs]).status).toBe(0);
  });
});
