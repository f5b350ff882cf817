import { dirname } from 'node:path';
import type { Clock } from '../../shared/clock.js';
import { MemoryClosedError, MemorySchemaError } from '../../shared/errors.js';
import type { IdGenerator } from '../../shared/ids.js';
import type { Connection } from '../db/connection.js';
import { isDamage, typedStorageError } from '../db/storage-fault.js';
import type { ExportResult, MemoryHealth } from '../types.js';
import { bootstrap } from './bootstrap.js';
import { recordCleanClose } from './clean-close.js';
import { clearDegraded } from './clear-degraded.js';
import { type ClearSeed, clearInPlace, clearSeed } from './clear.js';
import { exportMemory } from './export.js';
import type { MetaSeed } from './seed.js';

type MemoryState =
  | { health: 'healthy'; conn: Connection }
  // `untrusted`: the data folder is not the user's own (issue "Safe hands", item 2); nothing in it is touched.
  | { health: 'degraded'; reason: string; conn: Connection | null; untrusted?: boolean }
  | { health: 'closed' };

/**
 * What a call may do on a Memory that is not healthy (M-2.4): `healthy` work is refused while degraded
 * (MemorySchemaError); `diagnostic` work (status, show, export, clear, open-job counts) runs on what a degraded
 * Memory can still read (its read-only snapshot, or nothing: null); `state` work answers from the manager alone
 * and reads no database. Once closed, everything but `state` work throws MemoryClosedError.
 */
export type Access = 'healthy' | 'diagnostic' | 'state';
/** The connection a guarded call gets. */
export type ConnOf<A extends Access> = A extends 'healthy' ? Connection : A extends 'diagnostic' ? Connection | null : null;

/**
 * One manager's database file and its health: opened (created or verified) at construction, degraded as an
 * explicit state (M-2.4), cleared, exported and closed here. `guard` is the one check every public method of
 * the manager passes.
 */
export class MemoryFile {
  private state!: MemoryState;
  private currentWarnings!: string[];
  /** What a person should hear when Memory opens (a clear a crash interrupted and this start finished). */
  readonly notices: string[];
  /** Set when a healthy session met damage: its close must not stamp the file as verified (M-2.2). */
  private damageSeen = false;

  constructor(
    readonly dbPath: string,
    private readonly options: { now: Clock; ids: IdGenerator; busyTimeoutMs: number | undefined },
  ) {
    this.notices = this.open();
  }

  get health(): 'healthy' | 'degraded' | 'closed' {
    return this.state.health;
  }

  get degradedReason(): string | null {
    return this.state.health === 'degraded' ? this.state.reason : null;
  }

  /** What the opening (or the last clear) found worth reporting; status lists them. */
  get warnings(): string[] {
    return this.currentWarnings;
  }

  /** Health as this file knows it, without reading it. */
  describe(): MemoryHealth {
    return { health: this.state.health, degradedReason: this.degradedReason };
  }

  /** What status reports of the file itself. */
  report(): { dbPath: string; degradedReason: string | null; warnings: string[] } {
    return { dbPath: this.dbPath, degradedReason: this.degradedReason, warnings: this.currentWarnings };
  }

  /**
   * Runs `fn` with the connection `access` allows, or throws MemoryClosedError / MemorySchemaError (M-2.4).
   * SQLite and file-system failures, sync or async, leave as typed errors (M-2.7): MemoryStorageError with
   * cause and fix, MemorySchemaError for damage SQLite found.
   */
  guard<A extends Access, R>(access: A, what: string, fn: (conn: ConnOf<A>) => R): R {
    const typed = (error: unknown): Error => {
      const out = typedStorageError(error, what, dirname(this.dbPath));
      if (out instanceof MemorySchemaError || isDamage(error)) this.damageSeen = true;
      return out;
    };
    try {
      const out = fn((access === 'healthy' ? this.healthy() : access === 'diagnostic' ? this.any() : null) as ConnOf<A>);
      if (!(out instanceof Promise)) return out;
      return out.catch((error: unknown) => {
        throw typed(error);
      }) as R;
    } catch (error) {
      throw typed(error);
    }
  }

  /** The operational check (M-2.4): the verified connection. */
  healthy(): Connection {
    if (this.state.health === 'healthy') return this.state.conn;
    if (this.state.health === 'closed') throw new MemoryClosedError('Memory is closed');
    throw new MemorySchemaError(this.state.reason);
  }

  /** The connection of the diagnostic paths: a degraded Memory's read-only snapshot, or null. */
  any(): Connection | null {
    if (this.state.health === 'closed') throw new MemoryClosedError('Memory is closed');
    return this.state.conn;
  }

  /** The connection, whatever the health (null once closed or without a snapshot), for courtesy reads. */
  connection(): Connection | null {
    return this.state.health === 'closed' ? null : this.state.conn;
  }

  /**
   * `/memory clear --confirm` (M-10.3): deletes all Memory data in one transaction and writes one meta row and
   * one empty active thread. Degraded: see `clearDegraded` (a broken database is replaced and kept aside).
   */
  clear(): { seed: ClearSeed; recreated: boolean; movedAside: string | null } {
    this.refuseUntrusted('clear');
    const conn = this.any();
    const seed = clearSeed(conn, this.options.now(), this.options.ids('thread'));
    if (this.state.health === 'healthy' && conn) {
      clearInPlace(conn, seed);
      return { seed, recreated: false, movedAside: null };
    }
    this.state = { health: 'degraded', reason: this.degradedReason ?? 'closed', conn: null };
    let cleared: { recreated: boolean; movedAside: string | null };
    try {
      cleared = clearDegraded({ dbPath: this.dbPath, conn, seed, ids: this.options.ids, busyTimeoutMs: this.options.busyTimeoutMs });
    } catch (error) {
      // The old files are unchanged: look at them again so status keeps explaining them.
      try {
        this.open();
      } catch {
        // Reported through the clear's own error below.
      }
      throw error;
    }
    this.open({ generation: seed.generation, createdAt: seed.createdAt });
    return { seed, ...cleared };
  }

  /** `/memory export` (M-10.4): a new RAW JSON snapshot in `exportDir`. Works while degraded. */
  export(exportDir: string): ExportResult {
    this.refuseUntrusted('export');
    return exportMemory({ conn: this.any(), dbPath: this.dbPath, exportDir, degradedReason: this.degradedReason, now: this.options.now() });
  }

  /**
   * Closes the connection. A verified session that met no damage (nor did its worker: `damageElsewhere`)
   * stamps the file as it is now, so the next start may skip the physical checks.
   */
  close(damageElsewhere: boolean): void {
    // Another call (a concurrent close) may have changed the state meanwhile.
    const state = this.state;
    this.state = { health: 'closed' };
    if (state.health !== 'closed') state.conn?.close();
    if (state.health === 'healthy' && !this.damageSeen && !damageElsewhere) recordCleanClose(this.dbPath);
  }

  /** Clear and export never write into, or read from, a data folder that is not the user's own. */
  private refuseUntrusted(what: 'clear' | 'export'): void {
    if (this.state.health === 'degraded' && this.state.untrusted)
      throw new MemorySchemaError(`${this.state.reason} (${what} does not touch it)`);
  }

  /** Opens (creating or verifying) the file; returns what the start has to say. */
  private open(seed?: MetaSeed): string[] {
    const result = bootstrap(this.dbPath, this.options.now(), this.options.ids, seed, { busyTimeoutMs: this.options.busyTimeoutMs });
    this.currentWarnings = result.warnings;
    this.state =
      result.state === 'healthy'
        ? { health: 'healthy', conn: result.conn }
        : { health: 'degraded', reason: result.reason, conn: result.conn, ...(result.untrusted ? { untrusted: true } : {}) };
    return result.notices ?? [];
  }
}
