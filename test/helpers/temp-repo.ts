import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';

const created: string[] = [];

afterEach(() => {
  while (created.length > 0) rmSync(created.pop()!, { recursive: true, force: true });
});

/** A fresh project folder in the system temp dir, removed after the test. */
export function tempRepo(prefix = 'autopatch-j-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function dbPathOf(repo: string): string {
  return join(repo, '.autopatch-j', 'memory.db');
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Runs raw SQL against a database with a connection of its own, like an outside tool would. */
export function withRawDb<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The journal mode recorded in the file header (bytes 18–19: 2 means WAL), read without opening SQLite. */
export function journalModeOnDisk(path: string): 'wal' | 'rollback' {
  const header = readFileSync(path).subarray(0, 20);
  return header[18] === 2 && header[19] === 2 ? 'wal' : 'rollback';
}

/** A manual clock for leases, backoff and scheduling. */
export class ManualClock {
  constructor(public value = 1_800_000_000_000) {}
  now = (): number => this.value;
  advance(ms: number): number {
    this.value += ms;
    return this.value;
  }
}
