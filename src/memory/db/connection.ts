import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MemoryLeaseError } from '../../shared/errors.js';
import { sqliteAddon } from './sqlite-addon.js';

/** The file a read-write connection was opened on, to notice when a clear elsewhere replaced it. */
export interface FileIdentity {
  path: string;
  dev: number;
  ino: number;
}

/** How long a writer waits for another process's lock before SQLite reports SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * One better-sqlite3 connection with its prepared statements cached (prepared once per connection) and a
 * synchronous `BEGIN IMMEDIATE` transaction helper. Transactions never contain an `await` (M-2.8).
 */
export class Connection {
  private readonly statements = new Map<string, Database.Statement>();
  private depth = 0;
  private identity: FileIdentity | null = null;
  private readonly cleanups: (() => void)[] = [];

  constructor(readonly db: Database.Database) {}

  /**
   * Pins the connection to the file it has open now. Every write transaction then checks, under the write
   * lock, that the path still names that file: a clear in another process that replaced a damaged
   * database makes this connection's writes fail with MemoryLeaseError instead of going to a file that
   * no longer is the Memory. One stat per write transaction.
   */
  pinFile(path: string): void {
    const found = statSync(path);
    this.identity = { path, dev: found.dev, ino: found.ino };
  }

  /** Runs `fn` when the connection closes (a private snapshot folder is removed this way). */
  onClose(fn: () => void): void {
    this.cleanups.push(fn);
  }

  /** Opens a connection with the pragmas every Memory connection uses. They do not write to the file. */
  static open(
    path: string,
    options: { readonly?: boolean; fileMustExist?: boolean; verbose?: (sql: unknown) => void; busyTimeoutMs?: number } = {},
  ): Connection {
    const db = new Database(path, {
      ...sqliteAddon(),
      readonly: options.readonly ?? false,
      fileMustExist: options.fileMustExist ?? false,
      ...(options.verbose ? { verbose: options.verbose } : {}),
    });
    try {
      db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
      db.pragma('foreign_keys = ON');
      // An acknowledged turn must survive power loss, not only a process crash.
      db.pragma('synchronous = FULL');
      // Search terms are written to random places of their indexes; checkpointing every 4,000 pages rather
      // than 1,000 copies a hot page to the database once instead of several times. The WAL is then trimmed.
      db.pragma('wal_autocheckpoint = 4000');
      db.pragma(`journal_size_limit = ${32 * 1024 * 1024}`);
      // Temporary tables and sort trees (a ranked search materializes a few small ones per statement) stay in
      // memory: with the default, each one costs a temporary file's setup, about 15 µs, on every execution.
      db.pragma('temp_store = MEMORY');
    } catch (error) {
      db.close();
      throw error;
    }
    return new Connection(db);
  }

  /** The cached prepared statement for this SQL text. */
  stmt<Row = unknown>(sql: string): Database.Statement<unknown[], Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as Database.Statement<unknown[], Row>;
  }

  /**
   * Runs `fn` inside `BEGIN IMMEDIATE … COMMIT`; nested calls join the outer transaction.
   *
   * `durable: false` is for job bookkeeping and derived results (claims, heartbeats, extraction and
   * consolidation commits): the commit is crash-safe (WAL) but skips its own fsync. A power cut can only lose
   * the newest such commits, which returns their jobs to the queue to be derived again from the RAW turns;
   * the next durable commit syncs every WAL frame before it anyway. RAW turns, forget, `/new` and clear
   * always commit with synchronous=FULL.
   */
  immediate<T>(fn: () => T, options: { durable?: boolean } = {}): T {
    if (this.depth > 0) return fn();
    const relaxed = options.durable === false;
    if (relaxed) this.stmt('PRAGMA synchronous = NORMAL').run();
    try {
      return this.transaction('BEGIN IMMEDIATE', fn);
    } finally {
      if (relaxed) this.stmt('PRAGMA synchronous = FULL').run();
    }
  }

  /** Runs `fn` in a deferred (read) transaction so several reads see one snapshot. */
  read<T>(fn: () => T): T {
    if (this.depth > 0 || this.db.inTransaction) return fn();
    return this.transaction('BEGIN DEFERRED', fn);
  }

  private transaction<T>(begin: string, fn: () => T): T {
    this.stmt(begin).run();
    this.depth += 1;
    try {
      if (begin === 'BEGIN IMMEDIATE') this.checkIdentity();
      const result = fn();
      this.stmt('COMMIT').run();
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.stmt('ROLLBACK').run();
      throw error;
    } finally {
      this.depth -= 1;
    }
  }

  private checkIdentity(): void {
    if (!this.identity) return;
    const { path, dev, ino } = this.identity;
    const found = statSync(path, { throwIfNoEntry: false });
    if (found && found.dev === dev && found.ino === ino) return;
    throw new MemoryLeaseError(
      `${path} was replaced (Memory was cleared by another process); ` +
        'this write was refused so it cannot go to the old file — start autopatch-j again',
    );
  }

  close(): void {
    this.statements.clear();
    try {
      if (this.db.open) this.db.close();
    } finally {
      for (const cleanup of this.cleanups.splice(0)) cleanup();
    }
  }
}
