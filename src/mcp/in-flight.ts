/** Requests being served, so the server answers every one of them before it closes Memory and the transport. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Runs `work`, counted until it settles. */
  track<T>(work: () => Promise<T>): Promise<T> {
    const promise = work();
    this.running.add(promise);
    const forget = (): void => {
      this.running.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }

  /** Resolves once no request is running, then lets their responses reach the transport. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
