import type { Logger } from '../logger.js';
import { asProviderError } from '../provider-retry.js';
import { sleepUnlessStopped } from './stoppable-wait.js';

/** Backoff after a failed fetch: 100·2^n ms up to 3 s for retryable errors, else 100 ms. */
export function fetchErrorBackoffMs(retryable: boolean, consecutive: number): number {
  return retryable ? Math.min(100 * 2 ** consecutive, 3_000) : 100;
}

/**
 * One dispatcher slot, as duroxide's dispatcher loops: calls `next` (fetch and process one
 * item, returning whether there was one) until `stop` fires; after an empty fetch it waits out
 * the rest of `pollIntervalMs` so an idle slot never spins; a failed fetch backs off.
 * @internal
 */
export async function runSlot(
  stop: AbortSignal,
  pollIntervalMs: number,
  logger: Logger,
  operation: string,
  next: () => Promise<boolean>,
): Promise<void> {
  let failures = 0;
  while (!stop.aborted) {
    const started = Date.now();
    let found: boolean;
    try {
      found = await next();
      failures = 0;
    } catch (error) {
      const failure = asProviderError(operation, error);
      failures = failure.retryable ? failures + 1 : 0;
      logger.warn(
        {
          error: failure.message,
          retryable: failure.retryable,
        },
        `Error in ${operation}`,
      );
      await sleepUnlessStopped(fetchErrorBackoffMs(failure.retryable, failures), stop);
      continue;
    }
    const idle = pollIntervalMs - (Date.now() - started);
    if (!found && idle > 0) await sleepUnlessStopped(idle, stop);
  }
}
