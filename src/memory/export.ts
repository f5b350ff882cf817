import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStorageError, describeError } from '../shared/errors.js';
import { randomToken } from '../shared/ids.js';
import type { Connection } from './connection.js';

/** The audit relations a RAW export carries, in dependency order (M-10.4). */
export const EXPORT_TABLES = {
  memory_meta: 'id',
  threads: 'created_at, id',
  turns: 'created_at, thread_id, sequence',
  memory_jobs: 'created_at, id',
  memory_candidates: 'created_at, id',
  candidate_sources: 'candidate_id, ordinal',
  memory_items: 'created_at, id, revision',
  memory_item_candidates: 'item_id, revision, candidate_id',
} as const;

export interface ExportSnapshot {
  format: 'autopatch-j-memory-export';
  version: 1;
  exportedAt: string;
  health: 'healthy' | 'degraded';
  degradedReason: string | null;
  schemaVersion: number | null;
  tables: Record<string, unknown[] | { error: string }>;
  /** When SQLite cannot read the file at all, its bytes are kept here so a clear loses nothing. */
  unreadableFile?: { path: string; size: number; sha256: string; base64: string };
}

/** Largest unreadable database file an export embeds whole. */
export const UNREADABLE_EXPORT_LIMIT = 256 * 1024 * 1024;

/** A snapshot of a database SQLite cannot read: the reason and the file's bytes, base64. */
export function unreadableSnapshot(dbPath: string, reason: string, now: number): ExportSnapshot {
  const size = statSync(dbPath).size;
  if (size > UNREADABLE_EXPORT_LIMIT) {
    throw new MemoryStorageError(`cannot export: ${reason}, and the file is ${size} bytes; copy ${dbPath} by hand before clearing`);
  }
  const bytes = readFileSync(dbPath);
  return {
    format: 'autopatch-j-memory-export',
    version: 1,
    exportedAt: new Date(now).toISOString(),
    health: 'degraded',
    degradedReason: reason,
    schemaVersion: null,
    tables: {},
    unreadableFile: { path: dbPath, size, sha256: createHash('sha256').update(bytes).digest('hex'), base64: bytes.toString('base64') },
  };
}

/**
 * Reads every audit table in one read transaction. While degraded a missing or unreadable table is
 * reported inside the snapshot instead of failing the whole export.
 */
export function readSnapshot(conn: Connection, health: ExportSnapshot['health'], degradedReason: string | null, now: number): ExportSnapshot {
  const tables: ExportSnapshot['tables'] = {};
  let schemaVersion: number | null = null;
  conn.read(() => {
    schemaVersion = conn.db.pragma('user_version', { simple: true }) as number;
    for (const [table, order] of Object.entries(EXPORT_TABLES)) {
      try {
        tables[table] = conn.db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all();
      } catch {
        try {
          // A drifted table may lack the ordering columns; its rows are still worth exporting.
          tables[table] = conn.db.prepare(`SELECT * FROM "${table}"`).all();
        } catch (error) {
          tables[table] = { error: describeError(error) };
        }
      }
    }
  });
  return {
    format: 'autopatch-j-memory-export',
    version: 1,
    exportedAt: new Date(now).toISOString(),
    health,
    degradedReason,
    schemaVersion,
    tables,
  };
}

/**
 * Writes the snapshot as a new file under `exportDir` and returns its path. The file appears complete or
 * not at all: the JSON goes to a temp file in the same folder, is fsynced, then hard-linked to a name that
 * must not exist yet (a link never replaces a file, so an older export is never overwritten, even by a
 * concurrent process with the same timestamp); the temp file is removed on every path.
 */
export function writeExportFile(exportDir: string, snapshot: ExportSnapshot, now: number): string {
  mkdirSync(exportDir, { recursive: true });
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('.', '');
  const temp = join(exportDir, `.memory-export-${stamp}-${process.pid}-${randomToken(8)}.tmp`);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify(snapshot, null, 2) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    for (let n = 1; n < 10_000; n += 1) {
      const name = n === 1 ? `memory-export-${stamp}.json` : `memory-export-${stamp}-${n}.json`;
      const target = join(exportDir, name);
      try {
        linkSync(temp, target);
        syncDir(exportDir);
        return target;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new MemoryStorageError(`could not find a free export name in ${exportDir}`);
  } catch (error) {
    if (error instanceof MemoryStorageError) throw error;
    throw new MemoryStorageError(`export failed: ${describeError(error)}`, { cause: error });
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // The temp file was never created (openSync failed): nothing to clean.
    }
  }
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the link itself is already in place.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
