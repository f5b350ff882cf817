import { hostname } from 'node:os';
import { processAlive } from '../../shared/private-files.js';
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
 * True when an open turn or a leased job may be taken over (see `mayTakeOver`), i.e. when startup recovery
 * (M-10.1) has work to do. A read: when nothing is over, opening Memory writes nothing and waits for no lock.
 */
export function hasExpiredLeases(conn: Connection, now: number, leases: { turnLeaseMs: number; jobLeaseMs: number }): boolean {
  const { turns, jobs } = liveLeases(conn);
  const turnRule = { now, leaseMs: Math.max(leases.turnLeaseMs, DEFAULT_TURN_LEASE_MS), goneAtOnce: false };
  const jobRule = { now, leaseMs: Math.max(leases.jobLeaseMs, DEFAULT_JOB_LEASE_MS), goneAtOnce: true };
  return turns.some((t) => mayTakeOver(t.owner, t.expiresAt, turnRule)) || jobs.some((j) => mayTakeOver(j.owner, j.expiresAt, jobRule));
}

/** Heartbeats and clock granularity: a lease this far beyond one lease length is still believable. */
const LEASE_SLACK_MS = 5_000;

let hostName: string | undefined;

/** This machine's name, as lease owners carry it. */
function thisHost(): string {
  hostName ??= hostname().replace(/[:@\s]/gu, '_') || 'localhost';
  return hostName;
}

/**
 * The owner name a process writes into its leases: `<id>@<host>:<pid>`. SQLite in WAL mode is shared only by
 * processes of one machine, so a reader can ask whether the owner still runs (issue "Safe hands", item 5).
 */
export function leaseOwnerName(id: string): string {
  return `${id}@${thisHost()}:${process.pid}`;
}

/**
 * Whether the owner of a lease still runs: `alive` or `gone` for a process of this machine (other than this
 * one); `unknown` for an owner name without a process (a library's own worker id), another machine, or this
 * very process (another manager in it: its lease alone says whether it still works).
 */
export function ownerState(owner: string | null): 'alive' | 'gone' | 'unknown' {
  if (owner === null) return 'unknown';
  const match = /@(?:([^@:]+):)?(\d{1,10})$/u.exec(owner);
  if (!match) return 'unknown';
  if (match[1] !== undefined && match[1] !== thisHost()) return 'unknown';
  const pid = Number(match[2]);
  if (pid === process.pid) return 'unknown';
  return processAlive(pid) ? 'alive' : 'gone';
}

/** The process id in an owner name, when it has one. */
export function ownerPid(owner: string | null): number | null {
  const match = owner === null ? null : /@(?:[^@:]+:)?(\d{1,10})$/u.exec(owner);
  return match ? Number(match[1]) : null;
}

/**
 * A lease is over when it expired by the reader's clock, or when it lies further ahead than any lease is given
 * (the writer's clock ran ahead: believed, it would hold its work for as long as the clocks differ).
 */
export function leaseOver(expiresAt: number | null, now: number, leaseMs: number): boolean {
  return expiresAt === null || expiresAt < now || expiresAt > now + leaseMs + LEASE_SLACK_MS;
}

export interface LeaseRule {
  now: number;
  /** The longest lease a writer gives (this manager's own, at least the default). */
  leaseMs: number;
  /** A lease of a process that is gone is taken over at once (jobs), or only once it is over (turns, M-9.1). */
  goneAtOnce: boolean;
}

/**
 * Whether a lease may be taken over: never while its owner is a live process of this machine, whatever the
 * clocks say (a process whose clock runs ahead cannot end another's live turn); otherwise once it is over by
 * the reader's clock — or at once when its owner is gone and the rule says so.
 */
export function mayTakeOver(owner: string | null, expiresAt: number | null, rule: LeaseRule): boolean {
  const state = ownerState(owner);
  if (state === 'alive') return false;
  if (state === 'gone' && rule.goneAtOnce) return true;
  return leaseOver(expiresAt, rule.now, rule.leaseMs);
}

/** Open turns and leased jobs with their leases: few rows, read through partial indexes. */
export function liveLeases(conn: Connection): { turns: LeaseRecord[]; jobs: LeaseRecord[] } {
  return {
    turns: conn.stmt<LeaseRow>("SELECT id, lease_owner, lease_expires_at FROM turns WHERE state = 'open'").all().map(toLeaseRecord),
    jobs: conn
      .stmt<LeaseRow>("SELECT id, lease_owner, lease_expires_at FROM memory_jobs WHERE finished_at IS NULL AND status = 'leased'")
      .all()
      .map(toLeaseRecord),
  };
}

/** The lease columns of a `turns` or `memory_jobs` row. */
interface LeaseRow {
  id: string;
  lease_owner: string | null;
  lease_expires_at: number | null;
}

/** Who holds a turn or a job, and until when. */
export interface LeaseRecord {
  id: string;
  owner: string | null;
  expiresAt: number | null;
}

function toLeaseRecord(row: LeaseRow): LeaseRecord {
  return { id: row.id, owner: row.lease_owner, expiresAt: row.lease_expires_at };
}

/** Leases held by processes of this machine that no longer run, for status and the exit pass. */
export function goneLeases(conn: Connection): { turns: number; jobs: number; pids: number[] } {
  const { turns, jobs } = liveLeases(conn);
  const gone = (rows: LeaseRecord[]): LeaseRecord[] => rows.filter((r) => ownerState(r.owner) === 'gone');
  const t = gone(turns);
  const j = gone(jobs);
  const pids = [...new Set([...t, ...j].map((r) => ownerPid(r.owner)).filter((p): p is number => p !== null))].sort((a, b) => a - b);
  return { turns: t.length, jobs: j.length, pids };
}
