/** Epoch milliseconds. Injected everywhere so leases, backoff and scheduling are tested without sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** ISO-8601 text for an epoch-ms timestamp, or null. */
export function isoTime(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}
