import { closeSync, constants, existsSync, fsyncSync, linkSync, openSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { MemorySchemaError, MemoryStorageError, describeError } from '../../shared/errors.js';
import { nodeCrypto } from '../../shared/crypto.js';
import { randomToken } from '../../shared/ids.js';
import type { Connection } from '../db/connection.js';
import { ensurePrivateDir, syncDir } from './files.js';
import { isDamage, typedStorageError } from '../db/storage-fault.js';
import type { ExportResult } from '../types.js';

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

/**
 * The shape of an export file. A table that could not be read holds `{ error }`; a table whose reading
 * failed part-way keeps the rows read so far and gets a `<table>:error` entry next to it.
 */
export interface ExportSnapshot {
  format: 'autopatch-j-memory-export';
  version: 1;
  exportedAt: string;
  health: 'healthy' | 'degraded';
  degradedReason: string | null;
  schemaVersion: number | null;
  tables: Record<string, unknown[] | { error: string } | string>;
  /** When SQLite cannot read the file at all, its bytes are kept here so a clear loses nothing. */
  unreadableFile?: { path: string; size: number; sha256: string; base64: string };
}

/** What an export wrote, counted while streaming. */
export interface ExportCounts {
  turns: number;
  items: number;
  rawBytesOnly: boolean;
}

/** The one system call an export writes through; tests replace it to simulate a short write. */
export type WriteFn = (fd: number, buffer: Buffer, offset: number, length: number) => number;

const FLUSH_BYTES = 1 << 20;

/** Temp files of exports in progress: `.memory-export-<pid>-<timestamp>-<random>.tmp`. */
export const EXPORT_TEMP_PREFIX = '.memory-export-';

/**
 * A buffered writer over a file descriptor that checks every write's byte count: a partial write is
 * continued, a write that makes no progress is an error (a full disk reports itself either way).
 */
export class ExportSink {
  private parts: string[] = [];
  private pending = 0;
  bytes = 0;

  constructor(
    private readonly fd: number,
    private readonly write: WriteFn = writeSync,
  ) {}

  text(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
    if (this.pending >= FLUSH_BYTES) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const buffer = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.pending = 0;
    let offset = 0;
    while (offset < buffer.length) {
      const written = this.write(this.fd, buffer, offset, buffer.length - offset);
      if (!Number.isInteger(written) || written <= 0) {
        throw new MemoryStorageError(`short write: ${offset} of ${buffer.length} bytes written`, { code: 'ENOSPC' });
      }
      offset += written;
    }
    this.bytes += buffer.length;
  }
}

function header(health: ExportSnapshot['health'], degradedReason: string | null, schemaVersion: number | null, now: number): string {
  return [
    '{',
    '  "format": "autopatch-j-memory-export",',
    '  "version": 1,',
    `  "exportedAt": ${JSON.stringify(new Date(now).toISOString())},`,
    `  "health": ${JSON.stringify(health)},`,
    `  "degradedReason": ${JSON.stringify(degradedReason)},`,
    `  "schemaVersion": ${JSON.stringify(schemaVersion)},`,
  ].join('\n');
}

/**
 * Streams every audit table, row by row, in one read transaction: memory stays bounded whatever the size of
 * the database. While degraded a missing or unreadable table is reported inside the snapshot instead of
 * failing the whole export.
 */
export function streamSnapshot(
  sink: ExportSink,
  conn: Connection,
  health: ExportSnapshot['health'],
  degradedReason: string | null,
  now: number,
): ExportCounts {
  const counts: ExportCounts = { turns: 0, items: 0, rawBytesOnly: false };
  conn.read(() => {
    const schemaVersion = conn.db.pragma('user_version', { simple: true }) as number;
    sink.text(`${header(health, degradedReason, schemaVersion, now)}\n  "tables": {`);
    let firstTable = true;
    for (const [table, order] of Object.entries(EXPORT_TABLES)) {
      sink.text(`${firstTable ? '' : ','}\n    ${JSON.stringify(table)}: `);
      firstTable = false;
      let rows: IterableIterator<unknown>;
      try {
        rows = conn.db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).iterate();
      } catch {
        try {
          // A drifted table may lack the ordering columns; its rows are still worth exporting.
          rows = conn.db.prepare(`SELECT * FROM "${table}"`).iterate();
        } catch (error) {
          sink.text(JSON.stringify({ error: describeError(error) }));
          continue;
        }
      }
      sink.text('[');
      let n = 0;
      let failure: string | null = null;
      try {
        for (const row of rows) {
          sink.text(`${n === 0 ? '' : ','}\n      ${JSON.stringify(row)}`);
          n += 1;
        }
      } catch (error) {
        if (error instanceof MemoryStorageError) throw error;
        failure = describeError(error);
      }
      sink.text(n === 0 ? ']' : '\n    ]');
      if (failure !== null) sink.text(`,\n    ${JSON.stringify(`${table}:error`)}: ${JSON.stringify(failure)}`);
      if (table === 'turns') counts.turns = n;
      if (table === 'memory_items') counts.items = n;
    }
    sink.text('\n  }\n}\n');
  });
  return counts;
}

const CHUNK = 3 * 256 * 1024;

function eachChunk(path: string, fn: (chunk: Buffer) => void): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const buffer = Buffer.alloc(CHUNK);
    for (;;) {
      // Fill whole multiples of 3 bytes so base64 chunks concatenate without padding in the middle.
      let filled = 0;
      while (filled < CHUNK) {
        const n = readSync(fd, buffer, filled, CHUNK - filled, null);
        if (n === 0) break;
        filled += n;
      }
      if (filled > 0) fn(buffer.subarray(0, filled));
      if (filled < CHUNK) return;
    }
  } finally {
    closeSync(fd);
  }
}

/** A snapshot of a database SQLite cannot read: the reason and the file's bytes, base64, streamed. */
export function streamUnreadable(sink: ExportSink, dbPath: string, reason: string, now: number): ExportCounts {
  const size = statSync(dbPath).size;
  const hash = nodeCrypto().createHash('sha256');
  eachChunk(dbPath, (chunk) => hash.update(chunk));
  sink.text(`${header('degraded', reason, null, now)}\n  "tables": {},\n  "unreadableFile": {\n`);
  sink.text(`    "path": ${JSON.stringify(dbPath)},\n    "size": ${size},\n    "sha256": "${hash.digest('hex')}",\n    "base64": "`);
  eachChunk(dbPath, (chunk) => sink.text(chunk.toString('base64')));
  sink.text('"\n  }\n}\n');
  return { turns: 0, items: 0, rawBytesOnly: true };
}

/**
 * Writes an export as a new file under `exportDir` and returns its path with what `body` counted. The
 * file appears complete or not at all: `body` streams into a temp file in the same folder (every write's
 * byte count checked), which is fsynced, then hard-linked to a name that must not exist yet (a link never
 * replaces a file, so an older export is never overwritten, even by a concurrent process with the same
 * timestamp); the temp file is removed on every path.
 */
export function writeExportFile<T>(
  exportDir: string,
  now: number,
  body: (sink: ExportSink) => T,
  options: { write?: WriteFn } = {},
): { path: string; result: T } {
  ensurePrivateDir(exportDir);
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('.', '');
  // The pid first: a start-up removes the temp files of exports whose process is gone (kill -9, M-10.4).
  const temp = join(exportDir, `${EXPORT_TEMP_PREFIX}${process.pid}-${stamp}-${randomToken(8)}.tmp`);
  let created = false;
  try {
    const fd = openSync(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
    created = true;
    let result: T;
    try {
      const sink = new ExportSink(fd, options.write);
      result = body(sink);
      sink.flush();
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
        return { path: target, result };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new MemoryStorageError(`could not find a free export name in ${exportDir}`);
  } catch (error) {
    if (error instanceof MemoryStorageError && error.fix !== null) throw error;
    const typed = typedStorageError(error, 'export failed (no export file was written)', exportDir);
    throw typed;
  } finally {
    if (created) {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone; nothing to clean.
      }
    }
  }
}

/**
 * `/memory export` (M-10.4): a new RAW JSON snapshot under `exportDir`, also while degraded (`degradedReason`):
 * the tables as SQLite can still read them through `conn`, or, when it cannot read the file at all, its bytes.
 */
export function exportMemory(input: {
  conn: Connection | null;
  dbPath: string;
  exportDir: string;
  degradedReason: string | null;
  now: number;
}): ExportResult {
  const { conn, dbPath, exportDir, degradedReason, now } = input;
  if (conn) {
    try {
      const { path, result } = writeExportFile(exportDir, now, (sink) =>
        streamSnapshot(sink, conn, degradedReason ? 'degraded' : 'healthy', degradedReason, now),
      );
      return { path, ...result };
    } catch (error) {
      if (!degradedReason || !(error instanceof MemorySchemaError || isDamage(error))) throw error;
    }
  }
  // SQLite cannot read the file at all (not a database, …): keep its bytes instead.
  if (!degradedReason || !existsSync(dbPath)) throw new MemoryStorageError(`export failed: ${degradedReason ?? 'no database'}`);
  const { path, result } = writeExportFile(exportDir, now, (sink) => streamUnreadable(sink, dbPath, degradedReason, now));
  return { path, ...result };
}
