/**
 * Wakes fetches that wait for work (long polling), for providers that implement it in process.
 * A provider calls `notify` whenever work may have appeared; waiting fetches then look again, so
 * they never spin.
 */
export class WorkSignal {
  private readonly waiters = new Set<() => void>();

  /** Wakes every waiting fetch. */
  notify(): void {
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiting) wake();
  }

  /** Resolves at the next `notify`, or after `maxWaitMs` real milliseconds. */
  wait(maxWaitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      // A waiting fetch does not keep the process alive: a started runtime does that itself, and
      // a fetch left waiting after its runtime shut down must not hold the process open.
      const timer = setTimeout(wake, maxWaitMs).unref();
      this.waiters.add(wake);
    });
  }
}

/**
 * Tries `attempt` until it finds something or `pollTimeoutMs` of real time has passed. Between
 * tries it sleeps until `signal` is notified or until `msUntilChange(asOfMs)` (the time left
 * until the soonest moment after `asOfMs` at which delayed or locked work becomes available,
 * `null` when nothing is pending) has elapsed. `asOfMs` is the store's clock read just before
 * the attempt: a lock that lapses while the attempt runs still counts as a change to wait for,
 * not as a lock that had already gone (which would leave the fetch asleep for the whole poll).
 * An `attempt` that throws ends the poll with its error.
 */
export async function pollForWork<T>(
  signal: WorkSignal,
  pollTimeoutMs: number,
  clock: () => number,
  attempt: () => T | null,
  msUntilChange: (asOfMs: number) => number | null,
): Promise<T | null> {
  const deadline = performance.now() + pollTimeoutMs;
  for (;;) {
    const asOfMs = clock();
    const found = attempt();
    if (found !== null) return found;
    const remainingMs = deadline - performance.now();
    if (remainingMs <= 0) return null;
    const changeMs = msUntilChange(asOfMs);
    // A change already due (an injected clock that jumped) still waits 1 ms, so that a clock
    // which never advances cannot turn this loop into a spin.
    const waitMs = changeMs === null ? remainingMs : Math.min(remainingMs, Math.max(changeMs, 1));
    await signal.wait(waitMs);
  }
}
