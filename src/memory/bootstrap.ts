import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryStorageError, describeError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/ids.js';
import { Connection } from './connection.js';
import { SCHEMA_SQL, SCHEMA_VERSION, readCatalog, schemaManifest } from './schema.js';

/** Meta values a fresh database starts with: 1 and now, or what `clear` carries over (M-10.3). */
export interface MetaSeed {
  generation: number;
  createdAt: number;
}

/** Outcome of opening `memory.db`: a verified connection, or an explicit degraded state (M-2.4). */
export type BootstrapResult =
  | { state: 'healthy'; conn: Connection; created: boolean; warnings: string[] }
  | { state: 'degraded'; reason: string; conn: Connection | null; warnings: string[] };

/** Folder that holds everything autopatch-j keeps for a project. */
export function dataDir(repoRoot: string): string {
  return join(repoRoot, '.autopatch-j');
}

export function memoryDbPath(repoRoot: string): string {
  return join(dataDir(repoRoot), 'memory.db');
}

/**
 * Create `memory.db` when absent, otherwise verify it (M-2.2, M-2.3). A database that fails verification
 * is left exactly as found: no repairing DDL, no seeding, and WAL is switched on only after success.
 */
export function bootstrap(
  dbPath: string,
  now: number,
  ids: IdGenerator,
  seed?: MetaSeed,
  options: { busyTimeoutMs?: number } = {},
): BootstrapResult {
  const warnings: string[] = [];
  try {
    mkdirSync(dirname(dbPath), { recursive: true });
  } catch (error) {
    throw new MemoryStorageError(`cannot create ${dirname(dbPath)}: ${describeError(error)}`, { cause: error });
  }
  let conn: Connection;
  try {
    conn = Connection.open(dbPath, options);
  } catch (error) {
    return { state: 'degraded', reason: sqliteReason(error), conn: null, warnings };
  }
  try {
    let created = false;
    if (isBlank(conn)) created = initializeBlank(conn, now, ids, seed ?? { generation: 1, createdAt: now });
    if (created) deleteLegacyJson(dbPath, warnings);
    const problem = verifyBootstrap(conn);
    if (problem !== null) return { state: 'degraded', reason: problem, conn, warnings };
    if (String(conn.db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') {
      conn.db.pragma('journal_mode = WAL');
    }
    return { state: 'healthy', conn, created, warnings };
  } catch (error) {
    return { state: 'degraded', reason: sqliteReason(error), conn, warnings };
  }
}

/** `user_version = 0` counts as blank only when no non-`sqlite_*` schema object exists (M-2.3). */
function isBlank(conn: Connection): boolean {
  const version = conn.db.pragma('user_version', { simple: true }) as number;
  if (version !== 0) return false;
  const row = conn.db
    .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .get() as { n: number };
  return row.n === 0;
}

/** Creates schema, meta and the one active thread in one transaction; false when another process won. */
function initializeBlank(conn: Connection, now: number, ids: IdGenerator, seed: MetaSeed): boolean {
  return conn.immediate(() => {
    // Re-check under the write lock: two processes may both have seen an empty file.
    if (!isBlank(conn)) return false;
    conn.db.exec(SCHEMA_SQL);
    conn.db
      .prepare('INSERT INTO memory_meta (id, generation, created_at, updated_at) VALUES (1, ?, ?, ?)')
      .run(seed.generation, seed.createdAt, now);
    conn.db
      .prepare("INSERT INTO threads (id, status, created_at, updated_at) VALUES (?, 'active', ?, ?)")
      .run(ids('thread'), now, now);
    conn.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    return true;
  });
}

/** M-2.6: the legacy JSON store is deleted unread on first initialization; a failed delete is visible. */
function deleteLegacyJson(dbPath: string, warnings: string[]): void {
  const legacy = join(dirname(dbPath), 'memory.json');
  if (!existsSync(legacy)) return;
  try {
    rmSync(legacy, { force: true, recursive: false });
  } catch (error) {
    warnings.push(`could not delete legacy ${legacy}: ${describeError(error)}`);
  }
}

const VERIFY_MMAP_BYTES = 1 << 30;

/** Why a database fails the bootstrap invariant. */
export interface BootstrapProblem {
  reason: string;
  /**
   * True when the schema itself is sound and only rows are wrong (meta or active thread missing, foreign
   * keys broken): an explicit clear can empty such a database in place instead of recreating the file.
   */
  dataOnly: boolean;
}

/**
 * The bootstrap invariant, all at once (M-2.2). Returns null when it holds, else a reason a person can
 * act on ("index turns_thread_sequence missing", "user_version 3", "unknown table foo", …). Reads only.
 */
export function verifyBootstrap(conn: Connection): string | null {
  return bootstrapProblem(conn)?.reason ?? null;
}

export function bootstrapProblem(conn: Connection): BootstrapProblem | null {
  const version = conn.db.pragma('user_version', { simple: true }) as number;
  if (version !== SCHEMA_VERSION) {
    const objects = conn.db
      .prepare("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name LIMIT 3")
      .all() as { type: string; name: string }[];
    const held = objects.length > 0 ? ` (holds ${objects.map((o) => `${o.type} ${o.name}`).join(', ')})` : '';
    return { reason: `user_version ${version}${held}; expected ${SCHEMA_VERSION}`, dataOnly: false };
  }
  const drift = catalogDrift(conn);
  if (drift !== null) return { reason: drift, dataOnly: false };
  // quick_check reads every page: through a memory map that costs ~20 % less than one read() per page.
  conn.db.pragma(`mmap_size = ${VERIFY_MMAP_BYTES}`);
  let quick: { quick_check: string }[];
  try {
    quick = conn.db.pragma('quick_check') as { quick_check: string }[];
  } finally {
    conn.db.pragma('mmap_size = 0');
  }
  if (quick.length !== 1 || quick[0]?.quick_check !== 'ok') {
    return { reason: `quick_check failed: ${quick.slice(0, 3).map((r) => r.quick_check).join('; ')}`, dataOnly: false };
  }
  const fk = conn.db.pragma('foreign_key_check') as { table: string }[];
  if (fk.length > 0) {
    const tables = [...new Set(fk.map((r) => r.table))].join(', ');
    return { reason: `foreign_key_check found ${fk.length} violation(s) in ${tables}`, dataOnly: true };
  }
  const meta = conn.db.prepare('SELECT count(*) AS n FROM memory_meta WHERE id = 1').get() as { n: number };
  if (meta.n !== 1) return { reason: 'memory_meta row id=1 missing', dataOnly: true };
  const active = conn.db.prepare("SELECT count(*) AS n FROM threads WHERE status = 'active'").get() as { n: number };
  if (active.n !== 1) return { reason: active.n === 0 ? 'no active thread' : `${active.n} active threads`, dataOnly: true };
  return null;
}

/** Compares the live `sqlite_schema` with the manifest derived from SCHEMA_SQL. */
function catalogDrift(conn: Connection): string | null {
  const expected = schemaManifest();
  const live = readCatalog(conn.db);
  const problems: string[] = [];
  for (const [key, entry] of expected) {
    const found = live.get(key);
    if (!found) problems.push(`${entry.type} ${entry.name} missing`);
    else if (found.sql !== entry.sql || found.tblName !== entry.tblName) {
      problems.push(`${entry.type} ${entry.name} differs from the Memory v2 schema`);
    }
  }
  for (const [key, entry] of live) {
    if (!expected.has(key)) problems.push(`unknown ${entry.type} ${entry.name}`);
  }
  if (problems.length === 0) return null;
  const shown = problems.slice(0, 3).join('; ');
  return problems.length > 3 ? `${shown}; and ${problems.length - 3} more catalog difference(s)` : shown;
}

/** Turns a SQLite failure into a short reason ("file is not a database"). */
export function sqliteReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_NOTADB') return 'file is not a database';
  if (code === 'SQLITE_CORRUPT') return 'database disk image is malformed';
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    return `${code}: ${error instanceof Error ? error.message : String(error)}`;
  }
  return describeError(error);
}
