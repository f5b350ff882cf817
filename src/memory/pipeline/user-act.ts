import type { Clock } from '../../shared/clock.js';
import type { IdGenerator } from '../../shared/ids.js';
import type { Connection } from '../db/connection.js';
import type { MemoryWorker } from './worker.js';

/** What an act of the user (`/remember`, `keep`) needs of its manager. */
export interface UserActDeps {
  /** The healthy connection (the manager's guard throws when there is none). */
  conn: () => Connection;
  now: Clock;
  ids: IdGenerator;
  recoverIfDeferred: () => void;
  /** The worker when a model is configured, else null: the act's jobs then wait in the queue. */
  worker: (() => Promise<MemoryWorker>) | null;
}

/**
 * Runs the jobs of an act at once (M-5.7): a background batch that already holds them finishes first, then
 * the thread's jobs (or `only` these) get their chance, then what that produced settles.
 */
export async function runActNow(deps: UserActDeps, threadId: string, only?: readonly string[]): Promise<void> {
  if (!deps.worker) return;
  const worker = await deps.worker();
  await worker.idle();
  await worker.drain({ threadId, ...(only ? { only } : {}) });
  await worker.idle();
}
