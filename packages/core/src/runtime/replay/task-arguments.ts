import type { ActivityTask, ActivityTaskBody, RetryPolicy } from './scheduled-task.js';
import { scheduledTask } from './scheduled-task.js';

/** @internal */
export function requireString(what: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new TypeError(`${what} must be a string, got ${value === null ? 'null' : typeof value}`);
  }
  return value;
}

/** @internal */
export function requireDuration(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(
      `${what} must be a finite number of milliseconds >= 0, got ${String(value)}`,
    );
  }
  return value;
}

/** @internal */
export function activityTask<T>(body: ActivityTaskBody): ActivityTask<T> {
  const task = scheduledTask<T>({ ...body });
  // Like duroxide-node, `withTag` tags the descriptor itself and returns it, and is not part of
  // the descriptor's JSON.
  return Object.defineProperty(task, 'withTag', {
    value: (tag: string) => {
      (task as { tag?: string }).tag = requireString('tag', tag);
      return task;
    },
    enumerable: false,
  }) as ActivityTask<T>;
}

/** @internal */
export function validRetry(retry: RetryPolicy): RetryPolicy {
  if (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1) {
    throw new TypeError(
      `retry.maxAttempts must be an integer >= 1, got ${String(retry.maxAttempts)}`,
    );
  }
  if (retry.timeoutMs !== undefined) requireDuration('retry.timeoutMs', retry.timeoutMs);
  if (retry.totalTimeoutMs !== undefined)
    requireDuration('retry.totalTimeoutMs', retry.totalTimeoutMs);
  return retry;
}
