import type { Connection } from '../db/connection.js';

/** Lease of an open turn; a running manager heartbeats it (M-9.1). */
export const DEFAULT_TURN_LEASE_MS = 60_000;
/** Lease of a claimed job; heartbeated while its model call runs (M-9.1). */
export const DEFAULT_JOB_LEASE_MS = 180_000;

/** How often a lease is renewed: three times per lease, so one missed beat (a busy database) is survived. */
export function heartbeatInterval(leaseMs: number): number {
  return Math.max(1000, Math.floor(leaseMs / 3));
}

/**
 * True when an open turn or a leased job has an expired lease, i.e. when startup recovery (M-10.1) has
 * work to do. A read: when nothing expired, opening Memory writes nothing and waits for no lock.
 */
export function hasExpiredLeases(conn: Connection, now: number): boolean {
  const row = conn
    .stmt<{ expired: number }>(
      `SELECT EXISTS (SELECT 1 FROM turns WHERE state = 'open' AND lease_expires_at < ?)
           OR EXISTS (SELECT 1 FROM memory_jobs WHERE finished_at IS NULL AND status = 'leased' AND lease_expires_at < ?) AS expired`,
    )
    .get(now, now);
  return row?.expired === 1;
}
