import type { Connection } from '../connection.js';

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
