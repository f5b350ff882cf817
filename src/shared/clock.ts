/** Epoch milliseconds. Injected everywhere so leases, backoff and scheduling are tested without sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
