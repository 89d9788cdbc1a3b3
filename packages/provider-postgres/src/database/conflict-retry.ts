/**
 * How often and how patiently the provider runs a statement again after a conflict (a
 * serialization failure, a deadlock, a stale cached plan); see `FailureClass` in `errors.ts`.
 * duroxide-pg retries three times, 50, 100 and 150 ms apart, in fetch, ack and renew of an
 * orchestration item; we do the same for every statement, since each is its own transaction and
 * a conflict means it committed nothing.
 */
export interface ConflictRetryPolicy {
  /** Runs after the first one. */
  readonly maxRetries: number;
  /** Wait before retry `n` (0-based) is about `baseDelayMs * (n + 1)`, in ms. */
  readonly baseDelayMs: number;
}

/** The policy every statement uses: three retries, about 50, 100 and 150 ms apart. */
export const CONFLICT_RETRY_POLICY: ConflictRetryPolicy = { maxRetries: 3, baseDelayMs: 50 };

/**
 * The wait before retry `retry` (0-based), in ms. It is spread by ±25 % so that the two sides of
 * a deadlock, which fail at the same moment, do not collide again at the same moment.
 */
export function conflictRetryDelayMs(policy: ConflictRetryPolicy, retry: number): number {
  const base = policy.baseDelayMs * (retry + 1);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}
