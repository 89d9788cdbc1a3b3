import { ProviderError } from './provider-error.js';

/**
 * Checks a duration argument.
 * @throws {ProviderError} (permanent) naming the argument when it is not a finite number of
 *   milliseconds >= 0.
 */
export function requireDurationMs(operation: string, name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw ProviderError.permanent(
      operation,
      `${name} must be a finite number of milliseconds >= 0, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Checks an optional delay; `null` means none (0).
 * @throws {ProviderError} (permanent) as {@link requireDurationMs}.
 */
export function delayOrZeroMs(operation: string, delayMs: number | null): number {
  return delayMs === null ? 0 : requireDurationMs(operation, 'delayMs', delayMs);
}
