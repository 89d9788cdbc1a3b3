import { assert, expect } from 'vitest';
import type { WorkItemOf } from '../model/work-item.js';
import type { FetchedWorkItem } from '../provider/orchestration-item.js';

/** An `ActivityExecute` work item. */
export type ActivityExecute = WorkItemOf<'ActivityExecute'>;

/** A fetched worker-queue message known to be an `ActivityExecute`. */
export type FetchedActivity = FetchedWorkItem & { readonly item: ActivityExecute };

/** What {@link activityExecute} may set besides instance and id. */
export interface ActivityExecuteOptions {
  /** @default "TestActivity" */
  readonly name?: string;
  /** @default "{}" */
  readonly input?: string;
  /** @default 1 */
  readonly executionId?: number;
  /** Omitted (no session) by default. */
  readonly sessionId?: string;
  /** Omitted (untagged) by default. */
  readonly tag?: string;
}

/** An activity for the worker queue, as the validations schedule them. */
export function activityExecute(
  instance: string,
  id: number,
  options: ActivityExecuteOptions = {},
): ActivityExecute {
  const { name = 'TestActivity', input = '{}', executionId = 1, sessionId, tag } = options;
  return {
    type: 'ActivityExecute',
    instance,
    executionId,
    id,
    name,
    input,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(tag === undefined ? {} : { tag }),
  };
}

/** The completion a worker acknowledges an activity of execution 1 with. */
export function activityCompleted(
  instance: string,
  id: number,
  result: string,
): WorkItemOf<'ActivityCompleted'> {
  return { type: 'ActivityCompleted', instance, executionId: 1, id, result };
}

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
