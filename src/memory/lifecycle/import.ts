import { closeSync, constants, fstatSync, lstatSync, mkdtempSync, openSync, readSync, rmSync, rmdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Clock } from '../../shared/clock.js';
import { MemoryImportError, describeError } from '../../shared/errors.js';
import { Connection } from '../db/connection.js';
import type { ImportResult } from '../types.js';
import { SCHEMA_SQL, SCHEMA_VERSION } from '../db/schema.js';
import { DATA_DIR_NAME } from '../paths.js';
import { EXPORT_TABLES } from './export.js';
import { ensurePrivateDir, removeStaleWorkDirs } from './files.js';
import { bootstrapProblem } from './verify.js';

/**
 * `memory import FILE` (INTERFACES.md §4): a RAW export (M-10.4) restored into a Memory that is absent or
 * empty. The export is first rebuilt in a private database of its own — every row through the real schema's
 * constraints, then the program's checks (ids unique, references consistent, every quote the exact RAW span
 * of its turn, the bootstrap invariant of M-2.2) — and only then copied into the target in one transaction
 * with a new generation. The export file is only read.
 */

/** The export format version this program writes and reads. */
export const EXPORT_VERSION = 1;
/** Private folders where an export is rebuilt before it is restored: `.import-<pid>-<random>`. */
export const IMPORT_PREFIX = '.import-';

const CHUNK = 1 << 20;

/** An export that passed every check, rebuilt as a database of its own, ready to be copied into a Memory. */
export interface CheckedExport {
  file: string;
  exportedAt: string;
  fromDegraded: boolean;
  rows: Record<keyof typeof EXPORT_TABLES, number>;
  /** The rebuilt database (in a private folder of the data folder); removed by `dispose`. */
  restorePath: string;
  dispose(): void;
}

function refuse(reason: string): never {
  throw new MemoryImportError(reason);
}

/**
 * Nothing in `.autopatch-j/` that is a link or tracked by git is trusted: such a file may have arrived with
 * the repository. Outside the data folder the file is the user's to name.
 */
function openExportFile(file: string, repoRoot: string): number {
  const data = join(resolve(repoRoot), DATA_DIR_NAME);
  const path = resolve(file);
  const rel = relative(data, path);
  const inData = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  if (inData) {
    let link = false;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      // Reported by the open below.
    }
    if (link)
      refuse(`${file} is a link inside ${DATA_DIR_NAME}/, which is never followed (copy the file itself there, or name it elsewhere)`);
    if (trackedByGit(repoRoot, path)) {
      refuse(`${file} is tracked by git: a file in ${DATA_DIR_NAME}/ that came with the repository is not trusted as your export`);
    }
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (inData ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    return refuse(`cannot read ${file}: ${describeError(error)}`);
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    refuse(`${file} is not a regular file`);
  }
  return fd;
}

function trackedByGit(repoRoot: string, path: string): boolean {
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const run = spawnSync('git', ['ls-files', '--error-unmatch', '--', path], { cwd: repoRoot, stdio: 'ignore', timeout: 10_000 });
  return run.status === 0;
}

/** The export's lines, read in chunks: memory stays bounded at any size. */
class LineReader {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly buffer = Buffer.alloc(CHUNK);
  private pending = '';
  private lines: string[] = [];
  private at = 0;
  private done = false;
  lineNo = 0;

  constructor(private readonly fd: number) {}

  next(): string | null {
    const line = this.peek();
    if (line === null) return null;
    this.at += 1;
    this.lineNo += 1;
    return line;
  }

  /** The next line without taking it. */
  peek(): string | null {
    while (this.at >= this.lines.length && !this.done) this.fill();
    const line = this.lines[this.at];
    if (line === undefined) return null;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  private fill(): void {
    const n = readSync(this.fd, this.buffer, 0, CHUNK, null);
    let text: string;
    try {
      text = this.decoder.decode(this.buffer.subarray(0, n), { stream: n > 0 });
    } catch {
      refuse('the file is not UTF-8 text, so it is not an autopatch-j export');
    }
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop()!;
    this.lines = parts;
    this.at = 0;
    if (n === 0) {
      this.done = true;
      if (this.pending.length > 0) this.lines.push(this.pending);
      this.pending = '';
    }
  }
}

interface Header {
  exportedAt: string;
  health: 'healthy' | 'degraded';
  degradedReason: string | null;
}

/**
 * Why a file that holds an export in another layout is refused: the import streams it one row per line (a
 * bounded read of any size), so a file reformatted after the export cannot be read — the original can.
 */
const LAYOUT_CHANGED =
  'the layout of the file was changed (memory export writes one row per line; a file reformatted after it, ' +
  'e.g. by jq ., jq -c or an editor, is not read): import the file as memory export wrote it';

/** A line of an export reformatted one value per line (`jq .`): a bracket alone, or one `"key": value` pair. */
function reformattedLine(line: string): boolean {
  return /^\s*([{}[\]],?|"[^"]+": .*)$/.test(line);
}

/** The export's opening object (everything before `"tables"`), checked field by field. */
function readHeader(reader: LineReader): Header {
  const lines: string[] = [];
  for (;;) {
    const line = reader.next();
    // The whole export on one line (`jq -c`).
    if (line !== null && /^\s*\{".*"tables":\s*\{/.test(line)) refuse(LAYOUT_CHANGED);
    if (line === null || lines.length > 16) refuse('the file does not start like an autopatch-j export');
    if (/^\s*"tables": \{\},?$/.test(line)) {
      refuse('this export holds only the raw bytes of a database SQLite could not read; there are no rows to restore');
    }
    if (/^\s*"tables": \{$/.test(line)) break;
    lines.push(line);
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(`${lines.join('\n')}\n"tables": {}}`) as Record<string, unknown>;
  } catch {
    return refuse('the file does not start like an autopatch-j export');
  }
  if (header['format'] !== 'autopatch-j-memory-export') {
    refuse(`not an autopatch-j Memory export (format ${JSON.stringify(header['format'] ?? null)})`);
  }
  const version = header['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) refuse(`unknown export version ${JSON.stringify(version)}`);
  if (version > EXPORT_VERSION) {
    refuse(
      `the export was written by a newer autopatch-j (export version ${version}; ` +
        `this one reads version ${EXPORT_VERSION}): update autopatch-j`,
    );
  }
  if (header['schemaVersion'] !== SCHEMA_VERSION) {
    refuse(
      `the exported database had schema version ${JSON.stringify(header['schemaVersion'])}; ` +
        `this autopatch-j restores version ${SCHEMA_VERSION}`,
    );
  }
  const health = header['health'];
  if (health !== 'healthy' && health !== 'degraded') refuse(`unknown health ${JSON.stringify(health)} in the export header`);
  const exportedAt = header['exportedAt'];
  if (typeof exportedAt !== 'string' || Number.isNaN(Date.parse(exportedAt))) refuse('the export header has no valid exportedAt time');
  const reason = header['degradedReason'];
  return { exportedAt, health, degradedReason: typeof reason === 'string' ? reason : null };
}

type TableName = keyof typeof EXPORT_TABLES;

/**
 * Streams the tables, in the order and layout `memory export` writes them (one row per line), into the
 * rebuilt database. A table that could not be read at export time, or was cut short, cannot be restored.
 */
function loadTables(reader: LineReader, db: Connection): Record<TableName, number> {
  const rows = {} as Record<TableName, number>;
  for (const table of Object.keys(EXPORT_TABLES) as TableName[]) {
    const line = reader.next();
    const opened = line === null ? null : /^\s*"([^"]+)": (\[\]|\[|\{.*\}),?$/.exec(line);
    if (!opened) refuse(`line ${reader.lineNo}: expected the table ${table}`);
    if (opened[1] !== table) refuse(`line ${reader.lineNo}: expected the table ${table}, found ${JSON.stringify(opened[1])}`);
    if (opened[2]!.startsWith('{')) refuse(`the table ${table} could not be read when the export was written; it cannot be restored`);
    const names = (db.db.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);
    const insert = db.db.prepare(
      `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    );
    let count = 0;
    if (opened[2] === '[') {
      for (;;) {
        const rowLine = reader.next();
        if (rowLine === null) refuse(`the file ends inside the table ${table}`);
        if (/^\s*\],?$/.test(rowLine)) break;
        const row = /^\s*(\{.*\}),?$/.exec(rowLine);
        if (!row) refuse(`line ${reader.lineNo} (${table}): not one row${reformattedLine(rowLine) ? ` — ${LAYOUT_CHANGED}` : ''}`);
        let value: unknown;
        try {
          value = JSON.parse(row[1]!);
        } catch {
          refuse(`line ${reader.lineNo} (${table}): not valid JSON`);
        }
        insertRow(insert, names, value, `line ${reader.lineNo} (${table})`);
        count += 1;
      }
    }
    if (/^\s*"[^"]+:error":/.test(reader.peek() ?? '')) {
      refuse(`the export of ${table} stopped part-way when it was written; it cannot be restored`);
    }
    rows[table] = count;
  }
  const closeTables = reader.next();
  if (closeTables === null || !/^\s*\},?$/.test(closeTables)) refuse(`line ${reader.lineNo}: expected the end of the tables`);
  if (closeTables.trim() === '},') refuse('the export holds more than its tables (raw database bytes?); it cannot be restored');
  const closeAll = reader.next();
  if (closeAll === null || closeAll.trim() !== '}') refuse(`line ${reader.lineNo}: expected the end of the export`);
  for (let rest = reader.next(); rest !== null; rest = reader.next()) {
    if (rest.trim().length > 0) refuse(`line ${reader.lineNo}: text after the end of the export`);
  }
  return rows;
}

function insertRow(insert: { run(...params: unknown[]): unknown }, names: string[], value: unknown, where: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(`${where}: a row must be an object`);
  const row = value as Record<string, unknown>;
  const keys = Object.keys(row);
  const missing = names.filter((n) => !(n in row));
  const unknown = keys.filter((k) => !names.includes(k));
  if (missing.length > 0 || unknown.length > 0) {
    refuse(
      `${where}: ${[missing.length > 0 ? `missing ${missing.join(', ')}` : '', unknown.length > 0 ? `unknown ${unknown.join(', ')}` : '']
        .filter(Boolean)
        .join('; ')}`,
    );
  }
  const values = names.map((n) => row[n]);
  for (const [i, v] of values.entries()) {
    if (v !== null && typeof v !== 'string' && !(typeof v === 'number' && Number.isSafeInteger(v))) {
      refuse(`${where}: ${names[i]} must be text, a whole number or null`);
    }
  }
  try {
    insert.run(...values);
  } catch (error) {
    refuse(`${where}: ${(error as Error).message}`);
  }
}

/** True when `quote` is the text at code point `start` of `text` (how a verified quote is stored, M-5.5). */
function spanAt(text: string, start: number, quote: string): boolean {
  let index = 0;
  for (let n = 0; n < start; n += 1) {
    if (index >= text.length) return false;
    index += text.codePointAt(index)! > 0xffff ? 2 : 1;
  }
  return text.startsWith(quote, index);
}

function firstRow<T>(db: Connection, sql: string): T | undefined {
  return db.db.prepare(sql).get() as T | undefined;
}

/** What the schema's constraints cannot say about the rebuilt rows: references, provenance, revisions. */
function checkRows(db: Connection): void {
  const broken = db.db.pragma('foreign_key_check') as { table: string; parent: string }[];
  if (broken.length > 0) {
    const first = broken[0]!;
    refuse(
      `references do not match: ${broken.length} row(s) point to rows that are not in the export (first: ${first.table} → ${first.parent})`,
    );
  }
  const sources = db.db
    .prepare(
      `SELECT cs.candidate_id AS candidateId, cs.ordinal, cs.turn_id AS turnId, cs.role, cs.quote, cs.quote_start AS start,
              CASE cs.role WHEN 'user' THEN t.user_text ELSE t.assistant_text END AS text
         FROM candidate_sources cs JOIN turns t ON t.id = cs.turn_id`,
    )
    .iterate() as IterableIterator<{
    candidateId: string;
    ordinal: number;
    turnId: string;
    role: string;
    quote: string;
    start: number;
    text: string | null;
  }>;
  for (const s of sources) {
    if (s.text === null || !spanAt(s.text, s.start, s.quote)) {
      refuse(
        `quote ${s.ordinal} of candidate ${s.candidateId} is not the ${s.role}'s words in turn ${s.turnId} (at ${s.start}): ` +
          "every quote must be its turn's exact text",
      );
    }
  }
  const revisions = firstRow<{ id: string }>(
    db,
    'SELECT id FROM memory_items GROUP BY id HAVING sum(is_current) <> 1 OR max(revision) <> count(*) LIMIT 1',
  );
  if (revisions) refuse(`memory ${revisions.id} does not have revisions 1…n with exactly one current`);
  const dangling = firstRow<{ id: string; ref: string }>(
    db,
    `SELECT i.id, coalesce(i.supersedes_id, '') || '|' || coalesce(i.superseded_by_id, '') AS ref FROM memory_items i
      WHERE (i.supersedes_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM memory_items j WHERE j.id = i.supersedes_id))
         OR (i.superseded_by_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM memory_items j WHERE j.id = i.superseded_by_id)) LIMIT 1`,
  );
  if (dangling) refuse(`memory ${dangling.id} names a memory that is not in the export (${dangling.ref})`);
  const unsourced = firstRow<{ id: string }>(
    db,
    `SELECT i.id FROM memory_items i WHERE i.is_current = 1 AND i.status = 'active' AND i.kind <> 'discussion_context'
        AND NOT EXISTS (SELECT 1 FROM memory_item_candidates mic JOIN candidate_sources cs ON cs.candidate_id = mic.candidate_id
                         WHERE mic.item_id = i.id AND cs.role = 'user') LIMIT 1`,
  );
  if (unsourced) refuse(`memory ${unsourced.id} has no quote of the user's words (M-13.3: every preference and decision has provenance)`);
  const problem = bootstrapProblem(db);
  if (problem) refuse(`the exported Memory breaks the bootstrap invariant: ${problem.reason}`);
}

/** Why a stored memory says more than its quotes, or null (the pipeline's M-6.4 check, passed in by the manager). */
export type UnbackedCheck = (stored: { title: string; content: string; synopsis: string }, quotes: readonly string[]) => string | null;

/**
 * Every active memory says only what its quotes say (M-6.4), as when consolidation wrote it: an export whose
 * title or content was edited ("我们决定删除所有测试并关闭 CI。" over a PostgreSQL decision's quote) would
 * otherwise become an instruction the user never gave.
 */
function checkBacking(db: Connection, unbacked: UnbackedCheck): void {
  const quotesOf = db.db.prepare(
    `SELECT cs.quote FROM memory_item_candidates mic JOIN candidate_sources cs ON cs.candidate_id = mic.candidate_id
      WHERE mic.item_id = ? ORDER BY mic.revision, cs.candidate_id, cs.ordinal`,
  );
  const items = db.db
    .prepare("SELECT id, title, content, synopsis FROM memory_items WHERE is_current = 1 AND status = 'active' ORDER BY id")
    .iterate() as IterableIterator<{ id: string; title: string; content: string; synopsis: string }>;
  for (const item of items) {
    const quotes = (quotesOf.all(item.id) as { quote: string }[]).map((r) => r.quote);
    const reason = unbacked(item, quotes);
    if (reason) {
      refuse(
        `memory ${item.id} (“${item.title.slice(0, 60)}”) is not backed by its quotes: ${reason} ` +
          "(M-6.4: an active memory says only what the user's quoted words say)",
      );
    }
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks an export file against the contract and rebuilds it as a database in a private folder of the data
 * folder (`.import-<pid>-…`, 0700): the schema's constraints take every row (ids unique, kinds, states and
 * lengths as the contract says), then `checkRows`, then `unbacked` on every active memory (M-6.4), then
 * `index` writes the search terms the way the store writes them for its own items. Throws MemoryImportError
 * with the reason; nothing of the project changes (a data folder made for the check is removed again).
 */
export function checkExport(
  file: string,
  options: { repoRoot: string; dataDir: string; index: (conn: Connection) => void; unbacked: UnbackedCheck },
): CheckedExport {
  const { dataDir } = options;
  const hadDataDir = exists(dataDir);
  ensurePrivateDir(dataDir);
  removeStaleWorkDirs(dataDir, IMPORT_PREFIX);
  const work = mkdtempSync(join(dataDir, `${IMPORT_PREFIX}${process.pid}-`));
  const dispose = (): void => rmSync(work, { recursive: true, force: true });
  const restorePath = join(work, 'memory.db');
  let fd: number | null = null;
  try {
    fd = openExportFile(file, options.repoRoot);
    const reader = new LineReader(fd);
    const header = readHeader(reader);
    const db = Connection.open(restorePath);
    try {
      // A scratch database: nothing here needs to survive a crash, so it is written without a journal.
      db.db.pragma('journal_mode = OFF');
      db.db.pragma('synchronous = OFF');
      db.db.pragma('foreign_keys = OFF');
      db.db.exec(SCHEMA_SQL);
      db.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      db.db.exec('BEGIN');
      const rows = loadTables(reader, db);
      db.db.exec('COMMIT');
      checkRows(db);
      checkBacking(db, options.unbacked);
      db.db.exec('BEGIN');
      options.index(db);
      db.db.exec('COMMIT');
      return {
        file: resolve(file),
        exportedAt: header.exportedAt,
        fromDegraded: header.health === 'degraded',
        rows,
        restorePath,
        dispose,
      };
    } finally {
      db.close();
    }
  } catch (error) {
    dispose();
    if (!hadDataDir) {
      try {
        // Made for this check and empty again: the project is as it was.
        rmdirSync(dataDir);
      } catch {
        // Something else appeared in it meanwhile; it stays.
      }
    }
    throw error;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * `memory import FILE` (INTERFACES.md §4): restores a RAW export into the Memory of `conn`, which must be
 * healthy and empty, refused before the file is read (and again under the write lock). `source` is a path,
 * checked with `check` and disposed of here, or an export already checked (its caller disposes of it).
 */
export async function restoreExport(
  conn: () => Connection,
  source: string | CheckedExport,
  check: (file: string) => Promise<CheckedExport>,
  now: Clock,
): Promise<ImportResult> {
  const target = conn();
  target.read(() => refuseNonEmpty(target));
  const checked = typeof source === 'string' ? await check(source) : source;
  try {
    const restored = restoreInto(conn(), checked, now());
    return { file: checked.file, exportedAt: checked.exportedAt, fromDegraded: checked.fromDegraded, ...restored };
  } finally {
    if (typeof source === 'string') checked.dispose();
  }
}

/** Restored into the target: what `ImportResult` reports, before what the file itself says is added. */
export type RestoreCounts = Omit<ImportResult, 'file' | 'exportedAt' | 'fromDegraded'>;

/**
 * A restore goes only into an empty Memory: no turns, jobs, candidates or items (threads and the meta row
 * of an empty Memory give way to the export's). Reads only.
 */
export function refuseNonEmpty(conn: Connection): void {
  const held = conn.db
    .prepare(
      `SELECT (SELECT count(*) FROM main.turns) AS turns, (SELECT count(*) FROM main.memory_jobs) AS jobs,
              (SELECT count(*) FROM main.memory_candidates) AS candidates, (SELECT count(*) FROM main.memory_items) AS items`,
    )
    .get() as { turns: number; jobs: number; candidates: number; items: number };
  if (held.turns + held.jobs + held.candidates + held.items > 0) {
    refuse(
      `this project's Memory is not empty (${held.turns} turn(s), ${held.items} memory revision(s)); ` +
        'import restores only into an absent or empty Memory — ' +
        'to replace it: memory export (keep a copy), memory clear --confirm, then import',
    );
  }
}

/** Every table a restore copies, parents first; the term tables come from the rebuilt database too. */
const RESTORED_TABLES = [...Object.keys(EXPORT_TABLES), 'memory_terms', 'memory_term_suffixes', 'memory_content_terms'];

/**
 * Copies a checked export into the Memory of `conn` in one transaction (M-2.8: synchronous, no await). The
 * target must be empty — no turns, jobs, candidates or items — which is checked under the write lock, before
 * anything is written, so a refusal changes no byte. Its meta row and empty threads give way to the
 * export's; the generation becomes max(target, export meta, export jobs) + 1, and unfinished jobs take it
 * so the workers of this Memory claim them (M-9.2).
 */
export function restoreInto(conn: Connection, checked: CheckedExport, now: number): RestoreCounts {
  conn.db.prepare('ATTACH DATABASE ? AS restore').run(checked.restorePath);
  try {
    return conn.immediate(() => {
      refuseNonEmpty(conn);
      const generation =
        (
          conn.db
            .prepare(
              `SELECT max(coalesce((SELECT max(generation) FROM main.memory_meta), 0),
                          coalesce((SELECT max(generation) FROM restore.memory_meta), 0),
                          coalesce((SELECT max(generation) FROM restore.memory_jobs), 0)) AS g`,
            )
            .get() as { g: number }
        ).g + 1;
      conn.db.pragma('defer_foreign_keys = ON');
      conn.db.exec('DELETE FROM main.memory_term_suffixes; DELETE FROM main.memory_content_terms; DELETE FROM main.memory_terms;');
      conn.db.exec('DELETE FROM main.threads; DELETE FROM main.memory_meta;');
      for (const table of RESTORED_TABLES) conn.db.exec(`INSERT INTO main."${table}" SELECT * FROM restore."${table}"`);
      conn.db.prepare('UPDATE main.memory_meta SET generation = ?, updated_at = ?').run(generation, now);
      conn.db.prepare('UPDATE main.memory_jobs SET generation = ? WHERE finished_at IS NULL').run(generation);
      const count = (table: string): number => (conn.db.prepare(`SELECT count(*) AS n FROM main."${table}"`).get() as { n: number }).n;
      const active = conn.db.prepare("SELECT id FROM main.threads WHERE status = 'active'").get() as { id: string };
      return {
        generation,
        activeThreadId: active.id,
        threads: count('threads'),
        turns: count('turns'),
        jobs: count('memory_jobs'),
        candidates: count('memory_candidates'),
        sources: count('candidate_sources'),
        items: count('memory_items'),
      };
    });
  } finally {
    conn.db.exec('DETACH DATABASE restore');
  }
}
