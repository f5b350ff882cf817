import type { Clock } from '../../shared/clock.js';
import type { IdGenerator } from '../../shared/ids.js';
import type { Connection } from '../db/connection.js';
import type { OrdinaryIntent, TurnHandle, TurnRecord } from '../types.js';
import { LeaseKeeper } from './lease-keeper.js';
import { openJobsOfTurns } from './jobs.js';
import { admitTurn, finishTurn, heartbeatTurns } from './turns.js';

export interface OpenTurnsDeps {
  conn: () => Connection;
  owner: () => string;
  now: Clock;
  ids: IdGenerator;
  leaseMs: number;
  /** Runs after a turn was finished (its extraction job is queued). */
  finished: () => void;
}

/**
 * The turns one manager admits (M-3.2, M-9.1): each is stored with its owner lease before any model call,
 * heartbeated while it is open, and finished by the same owner. `own` remembers every turn admitted here:
 * the exit pass serves their jobs first.
 */
export class OpenTurns {
  private readonly own = new Set<string>();
  private readonly leases: LeaseKeeper;

  constructor(private readonly deps: OpenTurnsDeps) {
    this.leases = new LeaseKeeper(deps.leaseMs, (turnIds) => {
      const now = deps.now();
      return heartbeatTurns(deps.conn(), deps.owner(), turnIds, now + deps.leaseMs, now);
    });
  }

  /** Stores the RAW user text and the owner lease; binds the request to the active thread. */
  admit(conn: Connection, input: { intent: OrdinaryIntent; userText: string; scopePaths?: string[] }): TurnHandle {
    const now = this.deps.now();
    const handle = admitTurn(conn, {
      turnId: this.deps.ids('turn'),
      intent: input.intent,
      userText: input.userText,
      scopePaths: input.scopePaths ?? [],
      owner: this.deps.owner(),
      leaseExpiresAt: now + this.deps.leaseMs,
      now,
    });
    this.leases.hold(handle.turnId);
    this.own.add(handle.turnId);
    return handle;
  }

  /** Completes or fails the turn and queues its extraction job; its lease is no longer kept either way. */
  finish(
    conn: Connection,
    handle: TurnHandle,
    state: 'completed' | 'failed',
    assistantText: string | null,
    failure: string | null,
  ): TurnRecord {
    try {
      const turn = finishTurn(conn, {
        handle,
        owner: this.deps.owner(),
        state,
        assistantText,
        failure,
        jobId: this.deps.ids('job'),
        now: this.deps.now(),
      });
      this.deps.finished();
      return turn;
    } finally {
      this.leases.release(handle.turnId);
    }
  }

  /** Unfinished jobs of the turns admitted here, oldest first: what the exit pass serves first (M-10.2). */
  openJobs(conn: Connection): string[] {
    return conn.read(() => openJobsOfTurns(conn, [...this.own]));
  }

  /** Renews the leases of the open turns now; how many. */
  beat(): number {
    return this.leases.beat();
  }

  /** Stops heartbeating (the manager closes). */
  stop(): void {
    this.leases.stop();
  }
}
