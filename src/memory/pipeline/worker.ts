import { MEMORY_REQUEST_TIMEOUT_MS } from '../../config/config.js';
import { rawDiagnostic } from '../../llm/diagnostics.js';
import type { ChatMessage, ChatResponse, LlmClient, LlmPurpose } from '../../llm/types.js';
import type { Clock } from '../../shared/clock.js';
import { MemoryContractError, MemoryTimeoutError, ModelAnswerError, describeError } from '../../shared/errors.js';
import { clip } from '../../shared/text.js';
import type { IdGenerator } from '../../shared/ids.js';
import type { Connection } from '../db/connection.js';
import { type ClaimOptions, type ClaimedBatch, claimConsolidationJob, claimExtractionBatch, heartbeatBatch } from '../store/job-claims.js';
import { failBatch } from '../store/job-failures.js';
import { childJobs, nextJobEventAt, snapshotOpenJobs } from '../store/jobs.js';
import { isDamage } from '../db/storage-fault.js';
import { LeaseKeeper } from '../store/lease-keeper.js';
import { type DrainResult, EXIT_PASS_BUDGET_MS, type JobOutcome, type ProcessResult } from '../types.js';
import {
  CONSOLIDATION_SYSTEM_PROMPT,
  type ConsolidationPlan,
  applyConsolidation,
  loadConsolidationInput,
  planConsolidation,
} from './consolidation.js';
import { readConsolidationAnswer, readExtractionAnswer } from './contracts.js';
import { EXTRACTION_SYSTEM_PROMPT, commitExtraction, loadExtractionInput } from './extraction.js';
import { screenOffLoop } from './screening.js';

export interface WorkerDeps {
  conn: () => Connection;
  llm: LlmClient | undefined;
  now: Clock;
  ids: IdGenerator;
  owner: string;
  jobLeaseMs: number;
  requestTimeoutMs: number;
  recover: () => void;
}

/** M-10.2: the exit pass gives each request at most 60 s. */
export const EXIT_REQUEST_TIMEOUT_MS = MEMORY_REQUEST_TIMEOUT_MS;
// Bounds of the background timer: never spin, never sleep past a lease that might expire.
const MIN_WAKE_MS = 500;
const MAX_WAKE_MS = 60_000;
// After a transient SQLite or claim failure, the daemon tries again after this delay (M-9.3).
const ERROR_RETRY_MS = 1_000;

interface RunOptions {
  force: boolean;
  /** Checked before each claim: the background loop ends after its current batch once stopped. */
  keepGoing?: () => boolean;
  allow: Set<string> | null;
  threadId: string | null;
  timeoutMs: number;
  /** Ids already tried in this pass (exit pass: each id at most once). */
  tried: Set<string> | null;
  /** Ids of the allowlist no claim could take (their thread waits on an earlier job): not offered again. */
  skipped?: Set<string>;
  /** Consolidation children of tried jobs: offered before the rest of the allowlist. */
  children?: string[];
}

/** How many allowlisted ids one claim considers: a claim's cost must not grow with the backlog. */
const ALLOW_WINDOW = 256;

/**
 * Runs the durable Memory jobs: claim in one transaction, call the model outside any transaction, commit
 * in one fenced transaction (M-9.2). Background scheduling uses timers only (no busy loop) and survives
 * transient errors (M-9.3).
 */
export class MemoryWorker {
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  /** The last error of a background tick, for diagnosis; the daemon keeps running. */
  lastTickError: unknown = null;
  /** True once any job or tick met a damaged database: the session's close must not stamp it as verified. */
  damageSeen = false;
  /** The batch in flight, for `busy()`. */
  private current: ClaimedBatch | null = null;

  constructor(private readonly deps: WorkerDeps) {}

  /** Runs due work now. Without a model nothing runs and jobs stay queued. */
  async processDue(options: { force: boolean; keepGoing?: () => boolean }): Promise<ProcessResult> {
    if (!this.deps.llm) return { outcomes: [] };
    this.deps.recover();
    const outcomes = await this.runLoop({
      force: options.force,
      ...(options.keepGoing ? { keepGoing: options.keepGoing } : {}),
      allow: null,
      threadId: null,
      timeoutMs: this.deps.requestTimeoutMs,
      tried: null,
    });
    return { outcomes };
  }

  /**
   * The exit pass (M-10.2), also `/new`'s one chance for the old thread (M-3.4): snapshot the open jobs,
   * try each id at most once, allow the consolidation child of a snapshot extraction, 60 s per request;
   * failures go to retry and come back as warnings.
   */
  async drain(options: {
    threadId: string | null;
    first?: readonly string[];
    budgetMs?: number;
    only?: readonly string[];
  }): Promise<DrainResult> {
    const result: DrainResult = { attempted: 0, succeeded: 0, retried: 0, failed: 0, warnings: [], notTried: 0, budgetSpent: false };
    if (!this.deps.llm) return result;
    const conn = this.deps.conn();
    this.deps.recover();
    const only = options.only ? new Set(options.only) : null;
    // `only`: just these jobs of the snapshot (a kept candidate's consolidation, M-5.7).
    const snapshot = snapshotOpenJobs(conn, this.deps.now(), options.threadId).filter((id) => only === null || only.has(id));
    if (snapshot.length === 0) return result;
    // Real time, not the injected clock: the budget is how long a person waits for the process to end.
    const deadline = Date.now() + (options.budgetMs ?? EXIT_PASS_BUDGET_MS);
    const inTime = (): boolean => Date.now() < deadline;
    const first = new Set(options.first ?? []);
    const tried = new Set<string>();
    const outcomes: JobOutcome[] = [];
    // This process's own turns first: the jobs of the person who is leaving.
    // Then everything of the snapshot not tried yet (an own job whose thread waited on an older one included).
    for (const group of [snapshot.filter((id) => first.has(id)), snapshot]) {
      if (group.length === 0 || group.every((id) => tried.has(id))) continue;
      if (!inTime()) break;
      outcomes.push(
        ...(await this.runLoop({
          force: true,
          keepGoing: inTime,
          allow: new Set(group),
          threadId: options.threadId,
          timeoutMs: Math.min(EXIT_REQUEST_TIMEOUT_MS, this.deps.requestTimeoutMs),
          tried,
          skipped: new Set(),
          children: [],
        })),
      );
    }
    result.budgetSpent = !inTime();
    result.notTried = snapshot.filter((id) => !tried.has(id)).length;
    for (const outcome of outcomes) {
      result.attempted += outcome.jobIds.length;
      if (outcome.outcome === 'succeeded' || outcome.outcome === 'succeeded_no_output') result.succeeded += outcome.jobIds.length;
      else {
        if (outcome.outcome === 'failed') result.failed += outcome.jobIds.length;
        else result.retried += outcome.jobIds.length;
        for (const jobId of outcome.jobIds) {
          result.warnings.push({
            jobId,
            kind: outcome.kind,
            message: outcome.error ?? (outcome.outcome === 'fenced' ? 'lease lost to another worker' : 'failed'),
            nextRetryAt: outcome.nextRetryAt ?? null,
          });
        }
      }
    }
    return result;
  }

  /** The batch the background worker is running now (the exit pass says what it waits for), or null. */
  busy(): { kind: ClaimedBatch['kind']; jobs: number } | null {
    return this.current ? { kind: this.current.kind, jobs: this.current.jobs.length } : null;
  }

  private async runLoop(options: RunOptions): Promise<JobOutcome[]> {
    const outcomes: JobOutcome[] = [];
    for (;;) {
      if (options.keepGoing && !options.keepGoing()) return outcomes;
      const claim = this.claimNext(options);
      if (claim === 'next window') continue;
      if (!claim) return outcomes;
      const batch = claim;
      for (const job of batch.jobs) options.tried?.add(job.id);
      this.current = batch;
      let outcome: JobOutcome;
      try {
        outcome =
          batch.kind === 'extraction'
            ? await this.runExtraction(batch, options.timeoutMs)
            : await this.runConsolidation(batch, options.timeoutMs);
      } finally {
        this.current = null;
      }
      outcomes.push(outcome);
      if (options.allow && batch.kind === 'extraction') {
        // A consolidation child produced directly by a snapshot extraction may complete in the same pass.
        for (const child of childJobs(
          this.deps.conn(),
          batch.jobs.map((j) => j.id),
        )) {
          options.allow.add(child);
          options.children?.push(child);
        }
      }
    }
  }

  /**
   * The next batch to run. In a pass with an allowlist, one claim looks at most at ALLOW_WINDOW of its untried
   * ids (children first); when none of those can be claimed, the next ids are looked at ('next window').
   */
  private claimNext(options: RunOptions): ClaimedBatch | null | 'next window' {
    const conn = this.deps.conn();
    const now = this.deps.now();
    let allow: string[] | null = null;
    let more = false;
    if (options.allow) {
      const window = new Set<string>();
      for (const id of [...(options.children ?? []), ...options.allow]) {
        if (options.tried?.has(id) || options.skipped?.has(id) || window.has(id)) continue;
        if (window.size >= ALLOW_WINDOW) {
          more = true;
          break;
        }
        window.add(id);
      }
      if (window.size === 0) return null;
      allow = [...window];
    }
    const claim: ClaimOptions = {
      now,
      owner: this.deps.owner,
      batchId: this.deps.ids('job').replace(/^job-/, 'batch-'),
      leaseExpiresAt: now + this.deps.jobLeaseMs,
      force: options.force,
      allow,
      threadId: options.threadId,
    };
    const batch = claimExtractionBatch(conn, claim) ?? claimConsolidationJob(conn, claim);
    if (batch || !allow || !more) return batch;
    for (const id of allow) options.skipped?.add(id);
    return 'next window';
  }

  private async runExtraction(batch: ClaimedBatch, timeoutMs: number): Promise<JobOutcome> {
    const jobIds = batch.jobs.map((j) => j.id);
    return this.guarded(batch, 'memory_extraction', async () => {
      const input = loadExtractionInput(this.deps.conn(), batch);
      const read = await this.ask('memory_extraction', EXTRACTION_SYSTEM_PROMPT, input.payload, batch, timeoutMs, (answer) =>
        readExtractionAnswer(answer.content, answer.finishReason),
      );
      // Off the event loop (or a candidate at a time): Ctrl-C, heartbeats and MCP calls stay answered meanwhile.
      const { valid, suggested, diagnostics } = await screenOffLoop(read, input.context);
      const commit = commitExtraction(this.deps.conn(), {
        batch,
        compaction: read.compaction,
        maxSequence: input.maxSequence,
        valid,
        suggested,
        diagnostics,
        newId: (kind) => this.deps.ids(kind),
        now: this.deps.now(),
      });
      if (commit.outcome === 'fenced') return { jobIds, kind: 'extraction', outcome: 'fenced' };
      return { jobIds, kind: 'extraction', outcome: commit.outcome };
    });
  }

  private async runConsolidation(batch: ClaimedBatch, timeoutMs: number): Promise<JobOutcome> {
    const jobIds = batch.jobs.map((j) => j.id);
    return this.guarded(batch, 'memory_consolidation', async () => {
      const conn = this.deps.conn();
      const input = loadConsolidationInput(conn, batch);
      let plan: ConsolidationPlan = { operations: [], refusals: [], duplicates: new Map(), repairs: [] };
      if (input.candidates.length > 0) {
        plan = await this.ask('memory_consolidation', CONSOLIDATION_SYSTEM_PROMPT, input.payload, batch, timeoutMs, (answer) =>
          planConsolidation(conn, readConsolidationAnswer(answer.content, answer.finishReason), input, batch.threadId),
        );
      }
      const applied = applyConsolidation(conn, {
        batch,
        plan,
        consolidation: input,
        newItemId: () => this.deps.ids('item'),
        now: this.deps.now(),
      });
      return { jobIds, kind: 'consolidation', outcome: applied.outcome };
    });
  }

  /**
   * One model answer, read by `interpret`. An unusable answer (no readable JSON, or a consolidation that
   * breaks atomicity) is re-asked once at once with the error appended (M-9.4a); a truncated answer is not:
   * the same request would be cut off again, so the batch is split instead.
   */
  private async ask<T>(
    purpose: LlmPurpose,
    system: string,
    payload: unknown,
    batch: ClaimedBatch,
    timeoutMs: number,
    interpret: (answer: ChatResponse) => T,
  ): Promise<T> {
    const messages: ChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: JSON.stringify(payload) },
    ];
    const first = await this.callModel(purpose, messages, batch, timeoutMs);
    try {
      return interpret(first);
    } catch (error) {
      if (!isUnusableAnswer(error) || (error instanceof ModelAnswerError && error.problem === 'truncated')) throw error;
      const again: ChatMessage[] = [
        ...messages,
        { role: 'assistant', content: clip(first.content, 8_000) },
        {
          role: 'user',
          content:
            `Your answer could not be used: ${clip(error.message, 1_000)}\n` +
            'Answer again with exactly one JSON object that follows the contract, and nothing else.',
        },
      ];
      return interpret(await this.callModel(purpose, again, batch, timeoutMs));
    }
  }

  /**
   * Any failure puts the batch into retry with its RAW diagnostic, unless the worker was fenced. An
   * unusable model answer counts toward `failed` and splits the batch; a transport failure only backs off
   * (M-9.4a).
   */
  private async guarded(batch: ClaimedBatch, purpose: LlmPurpose, work: () => Promise<JobOutcome>): Promise<JobOutcome> {
    const jobIds = batch.jobs.map((j) => j.id);
    // The batch's leases are kept alive while its model call runs (M-9.1).
    const leases = new LeaseKeeper(this.deps.jobLeaseMs, () => {
      const now = this.deps.now();
      return heartbeatBatch(this.deps.conn(), batch, now + this.deps.jobLeaseMs, now) ? batch.jobs.length : 0;
    });
    leases.hold(batch.batchId);
    try {
      return await work();
    } catch (error) {
      if (isDamage(error)) this.damageSeen = true;
      const raw = rawDiagnostic(error, { purpose });
      const short = describeError(error);
      // Only a readable model answer can be unusable; anything that is not an answer (a proxy's HTML page,
      // a network error, a timeout, 429/5xx) is transport and never makes a job terminal (M-9.4a).
      const unusable = isUnusableAnswer(error);
      let failed: ReturnType<typeof failBatch>;
      try {
        failed = failBatch(this.deps.conn(), batch, { rawError: raw, purpose, error: short.slice(0, 500), unusable }, this.deps.now());
      } catch {
        // Could not even record the failure (database busy): the lease expires and the job is reclaimed.
        return { jobIds, kind: batch.kind, outcome: 'retry', error: short };
      }
      if (failed === null) return { jobIds, kind: batch.kind, outcome: 'fenced', error: short };
      if (failed.failedJobIds.length > 0) return { jobIds, kind: batch.kind, outcome: 'failed', error: short };
      return {
        jobIds,
        kind: batch.kind,
        outcome: 'retry',
        error: short,
        nextRetryAt: failed.nextRetryAt,
        ...(failed.split ? { split: true } : {}),
      };
    } finally {
      leases.release(batch.batchId);
    }
  }

  /** The model call, bounded by the request timeout even if the client ignores its abort signal. */
  private async callModel(purpose: LlmPurpose, messages: ChatMessage[], batch: ClaimedBatch, timeoutMs: number): Promise<ChatResponse> {
    const llm = this.deps.llm!;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new MemoryTimeoutError(`${purpose} request for ${batch.kind} ${batch.jobs[0]!.id} timed out after ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      return await Promise.race([llm.chat({ purpose, messages, signal: controller.signal }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Background scheduling (M-5.1): wake on new turns, on the 30-second rule, on retry times and lease expiry. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  stop(): void {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A turn finished: run due work soon. Does nothing until `start()`. */
  wake(): void {
    if (!this.started) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Resolves when no background tick is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private schedule(delayMs: number): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    let delay = MAX_WAKE_MS;
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.processDue({ force: false, keepGoing: () => this.started });
        } while (this.again && this.started);
        this.lastTickError = null;
        delay = this.nextWakeDelay();
      } catch (error) {
        this.lastTickError = error;
        if (isDamage(error)) this.damageSeen = true;
        delay = ERROR_RETRY_MS;
      }
    })();
    try {
      await this.running;
    } finally {
      this.running = null;
    }
    this.schedule(delay);
  }

  /** Time until the next job can become due: a 30-second wait ending, a retry time, or a lease expiring. */
  private nextWakeDelay(): number {
    const at = nextJobEventAt(this.deps.conn(), this.deps.now());
    if (at === null) return MAX_WAKE_MS;
    return Math.min(MAX_WAKE_MS, Math.max(MIN_WAKE_MS, at - this.deps.now()));
  }
}

/** A model answer that was read but cannot be used: no JSON in it, or JSON that breaks the contract. */
function isUnusableAnswer(error: unknown): error is MemoryContractError | ModelAnswerError {
  return error instanceof MemoryContractError || error instanceof ModelAnswerError;
}
