import { setTimeout as sleep } from 'node:timers/promises';
import { ClientError } from './client-error.js';

/** How a wait paces its reads. @internal */
export interface PollSchedule {
  /** When to give up, epoch ms. */
  readonly deadlineMs: number;
  /** The pause after the first read, ms. */
  readonly firstDelayMs: number;
  /** The longest pause; pauses double from the first up to this, ms. */
  readonly maxDelayMs: number;
}

function isRetryableProviderFailure(error: unknown): error is ClientError {
  return ClientError.isInstance(error) && error.kind === 'Provider' && error.isRetryable();
}

/**
 * Reads with `probe` until it returns a value. A read that fails with a retryable provider error
 * (a dropped connection, a failover) is tried again on the same schedule, so a wait outlives a
 * brief outage; any other failure ends the wait at once.
 * @throws {ClientError} `Timeout` when the deadline passes, or the last retryable failure when
 *   the last read before the deadline failed.
 * @internal
 */
export async function pollUntil<T>(
  schedule: PollSchedule,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  for (let delay = schedule.firstDelayMs; ; delay = Math.min(delay * 2, schedule.maxDelayMs)) {
    let lastFailure: ClientError | null = null;
    try {
      const found = await probe();
      if (found !== undefined) return found;
    } catch (error) {
      if (!isRetryableProviderFailure(error)) throw error;
      lastFailure = error;
    }
    const remaining = schedule.deadlineMs - Date.now();
    if (remaining <= 0) throw lastFailure ?? ClientError.timeout();
    await sleep(Math.min(delay, remaining));
  }
}
