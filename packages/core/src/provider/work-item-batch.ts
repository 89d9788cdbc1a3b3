import { ProviderError } from './provider-error.js';

function requireCount(operation: string, name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw ProviderError.permanent(
      operation,
      `${name} must be an integer >= ${min}, got ${String(value)}`,
    );
  }
}

/**
 * Checks the `maxItems` of a batch fetch (`Provider.fetchOrchestrationItems`, `fetchWorkItems`),
 * for providers implementing one.
 * @throws {ProviderError} (permanent) naming the argument when it is not an integer >= 1.
 */
export function requireMaxItems(operation: string, maxItems: number): void {
  requireCount(operation, 'maxItems', maxItems, 1);
}

/**
 * Checks the limits of `Provider.fetchWorkItems`, for providers implementing it.
 * @throws {ProviderError} (permanent) naming the argument when `maxItems` is not an integer >= 1
 *   or `maxNewSessions` not an integer >= 0.
 */
export function requireWorkItemBatchLimits(
  operation: string,
  maxItems: number,
  maxNewSessions: number,
): void {
  requireMaxItems(operation, maxItems);
  requireCount(operation, 'maxNewSessions', maxNewSessions, 0);
}

/**
 * Checks the acknowledgements of `Provider.ackWorkItems` or `Provider.ackOrchestrationItems`,
 * for providers implementing them: the same lock token twice would be one activity, or one
 * turn, acknowledged twice.
 * @throws {ProviderError} (permanent) naming the first repeated token.
 */
export function requireDistinctLockTokens(
  operation: string,
  acks: readonly { readonly lockToken: string }[],
): void {
  const seen = new Set<string>();
  for (const { lockToken } of acks) {
    if (seen.has(lockToken)) {
      throw ProviderError.permanent(operation, `lock token ${lockToken} is acknowledged twice`);
    }
    seen.add(lockToken);
  }
}
