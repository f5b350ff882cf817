import type { Connection } from '../db/connection.js';
import { SCHEMA_VERSION, readCatalog, schemaManifest } from '../db/schema.js';

/** `user_version = 0` counts as blank only when no non-`sqlite_*` schema object exists (M-2.3). */
export function isBlank(conn: Connection): boolean {
  const version = conn.db.pragma('user_version', { simple: true }) as number;
  if (version !== 0) return false;
  const row = conn.db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").get() as {
    n: number;
  };
  return row.n === 0;
}

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

export function bootstrapProblem(conn: Connection, options: { physical?: boolean } = {}): BootstrapProblem | null {
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
  if (options.physical !== false) {
    const physical = physicalProblem(conn);
    if (physical !== null) return physical;
  }
  const meta = conn.db.prepare('SELECT count(*) AS n FROM memory_meta WHERE id = 1').get() as { n: number };
  if (meta.n !== 1) return { reason: 'memory_meta row id=1 missing', dataOnly: true };
  const active = conn.db.prepare("SELECT count(*) AS n FROM threads WHERE status = 'active'").get() as { n: number };
  if (active.n !== 1) return { reason: active.n === 0 ? 'no active thread' : `${active.n} active threads`, dataOnly: true };
  return null;
}

/** M-2.2's physical checks: every page (quick_check) and every foreign key. */
function physicalProblem(conn: Connection): BootstrapProblem | null {
  // quick_check reads every page with read(), not through a memory map (~20 % faster): a disk read error
  // through a map kills the process (SIGBUS, SQLite's own warning) where it must end in a degraded state.
  const quick = conn.db.pragma('quick_check') as { quick_check: string }[];
  if (quick.length !== 1 || quick[0]?.quick_check !== 'ok') {
    return {
      reason: `quick_check failed: ${quick
        .slice(0, 3)
        .map((r) => r.quick_check)
        .join('; ')}`,
      dataOnly: false,
    };
  }
  const fk = conn.db.pragma('foreign_key_check') as { table: string }[];
  if (fk.length > 0) {
    const tables = [...new Set(fk.map((r) => r.table))].join(', ');
    return { reason: `foreign_key_check found ${fk.length} violation(s) in ${tables}`, dataOnly: true };
  }
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
