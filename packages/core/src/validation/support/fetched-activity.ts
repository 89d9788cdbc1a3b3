import { assert, expect } from 'vitest';
import type { WorkItemOf } from '../../model/work-item.js';
import type { FetchedWorkItem } from '../../provider/orchestration-item.js';

/** A fetched worker-queue message known to be an `ActivityExecute`. */
export type FetchedActivity = FetchedWorkItem & { readonly item: WorkItemOf<'ActivityExecute'> };

/** Fields of a fetched activity to check; `null` means "absent" (no session, untagged). */
export interface ExpectedActivity {
  readonly id?: number;
  readonly name?: string;
  readonly sessionId?: string | null;
  readonly tag?: string | null;
  readonly attemptCount?: number;
}

/**
 * Fails the validation unless a worker fetch returned an `ActivityExecute` with the `expected`
 * fields; `message` names what was expected and labels every failed check.
 * @throws {AssertionError} when nothing was fetched or a field differs.
 */
export function assertFetchedActivity(
  fetched: FetchedWorkItem | null,
  message: string,
  expected: ExpectedActivity = {},
): asserts fetched is FetchedActivity {
  assert(fetched !== null, message);
  const { item } = fetched;
  assert(item.type === 'ActivityExecute', `${message}: expected ActivityExecute, got ${item.type}`);
  if (expected.id !== undefined) expect(item.id, `${message} (id)`).toBe(expected.id);
  if (expected.name !== undefined) expect(item.name, `${message} (name)`).toBe(expected.name);
  if (expected.sessionId !== undefined) {
    expect(item.sessionId, `${message} (session_id)`).toBe(expected.sessionId ?? undefined);
  }
  if (expected.tag !== undefined) {
    expect(item.tag, `${message} (tag)`).toBe(expected.tag ?? undefined);
  }
  if (expected.attemptCount !== undefined) {
    expect(fetched.attemptCount, `${message} (attempt_count)`).toBe(expected.attemptCount);
  }
}
