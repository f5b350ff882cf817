import type { Connection } from '../db/connection.js';

/** Meta values a fresh database starts with: 1 and now, or what `clear` carries over (M-10.3). */
export interface MetaSeed {
  generation: number;
  createdAt: number;
}

/**
 * The rows every Memory starts with: the one meta row and the one empty active thread (M-2.2, M-3.1).
 * Written only by the first initialization and an explicit clear, inside their transaction.
 */
export function writeSeedRows(conn: Connection, seed: MetaSeed & { threadId: string; now: number }): void {
  conn
    .stmt('INSERT INTO memory_meta (id, generation, created_at, updated_at) VALUES (1, ?, ?, ?)')
    .run(seed.generation, seed.createdAt, seed.now);
  conn.stmt("INSERT INTO threads (id, status, created_at, updated_at) VALUES (?, 'active', ?, ?)").run(seed.threadId, seed.now, seed.now);
}
