import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from '../provider/provider-error.js';

/** How often an acknowledgement is tried again after a retryable failure, as duroxide's turn ack. */
const RETRIES = 5;
/** The pause before the first retry, ms; it doubles each time. */
const FIRST_BACKOFF_MS = 10;

/** Any thrown value as a `ProviderError` (a bare error counts as retryable, as duroxide's). @internal */
export function asProviderError(operation: string, error: unknown): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  return ProviderError.retryable(
    operation,
    error instanceof Error ? error.message : String(error),
    { cause: error },
  );
}

/**
 * Runs a provider call, trying it again after a retryable failure (a dropped connection) with
 * 10 ms doubling backoff, five times; a permanent failure is returned at once. Only for calls
 * that are safe to repeat: a lock-token call whose first attempt did commit fails the repeat
 * with a permanent invalid-token error instead of committing twice.
 * @returns `null` when the call succeeded, else its last failure.
 * @internal
 */
export async function callWithRetries(
  operation: string,
  call: () => Promise<unknown>,
): Promise<ProviderError | null> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await call();
      return null;
    } catch (error) {
      const failure = asProviderError(operation, error);
      if (!failure.retryable || attempt >= RETRIES) return failure;
      await sleep(FIRST_BACKOFF_MS * 2 ** attempt);
    }
  }
}
