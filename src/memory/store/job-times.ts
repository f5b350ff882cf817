/**
 * When a job is due (M-5.1, M-9.4, M-9.4a): the extraction wait and batch size, the backoffs, the retry time of
 * a failed job, and the SQL fragments that say a retry is due.
 */

/** M-5.1: the oldest-pending wait before a single turn is extracted on its own. */
export const EXTRACTION_WAIT_MS = 30_000;
/** M-5.1: a batch claims at most this many turns of one thread. */
export const EXTRACTION_BATCH_SIZE = 4;

/**
 * M-9.4a: a job whose model answer was unusable this many times in a row becomes `failed`: terminal until
 * `retry`. Stored as `retry_wait` with a retry time that never comes, so the status values outside tools
 * read stay those of M-2.1.
 */
export const MAX_UNUSABLE_ANSWERS = 6;
/** The retry time of a failed job: never. */
export const FAILED_AT = Number.MAX_SAFE_INTEGER;

/** M-9.4 backoff of transport failures (network, timeout, 429, 5xx): 5 s → 30 s → 2 min → 10 min → 1 h, capped. */
export const RETRY_BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000] as const;

export function retryDelay(attemptCount: number): number {
  const index = Math.min(Math.max(attemptCount, 1), RETRY_BACKOFF_MS.length) - 1;
  return RETRY_BACKOFF_MS[index]!;
}

/**
 * Backoff after an unusable model answer (issue "Safe hands", item 7), by the run of unusable answers so far:
 * each attempt already asks again at once with the error attached (M-9.4a); between attempts 5 s, 10 s, 20 s,
 * 40 s, 80 s, so the sixth unusable answer makes the job `failed` about 2.5 minutes after the first. The model
 * answered, so asking again soon costs little, and one that cannot follow the contract will not learn it in an
 * hour; transport failures keep the long backoff of M-9.4.
 */
export const UNUSABLE_BACKOFF_MS = [5_000, 10_000, 20_000, 40_000, 80_000] as const;

export function unusableDelay(unusableInARow: number): number {
  return UNUSABLE_BACKOFF_MS[Math.min(Math.max(unusableInARow, 1), UNUSABLE_BACKOFF_MS.length) - 1]!;
}

/** A retry time further ahead than the longest backoff was set by a clock that ran ahead: it is due now. */
export const MAX_RETRY_AHEAD_MS = RETRY_BACKOFF_MS[RETRY_BACKOFF_MS.length - 1]! + 60_000;

/**
 * SQL: the retry time of a `memory_jobs` row is due at `:now` — or lies further ahead than any backoff (a clock
 * that ran ahead), a failed job's never-coming time excepted. `RETRY_DUE_J` is the same for the alias `j`.
 */
export const RETRY_DUE = `(available_at <= :now OR (available_at > :now + ${MAX_RETRY_AHEAD_MS} AND available_at < ${FAILED_AT}))`;
export const RETRY_DUE_J = `(j.available_at <= :now OR (j.available_at > :now + ${MAX_RETRY_AHEAD_MS} AND j.available_at < ${FAILED_AT}))`;

export function isRetryDue(availableAt: number, now: number): boolean {
  return availableAt <= now || (availableAt > now + MAX_RETRY_AHEAD_MS && availableAt < FAILED_AT);
}
