import { assert, expect } from 'vitest';
import { TagFilter, type SessionFetchConfig } from '../../provider/fetch-filters.js';
import type { FetchedWorkItem } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import type { WorkItemOf } from '../../model/work-item.js';
import {
  assertFetchedActivity,
  type ExpectedActivity,
  type FetchedActivity,
} from '../support/fetched-activity.js';
import { activityExecute } from '../support/fixtures.js';

/** Session lock the `sessions` validations claim with unless they test expiry, ms. */
export const SESSION_LOCK_MS = 30_000;

/** Activity lock of most `sessions` fetches, ms. */
export const WORK_ITEM_LOCK_MS = 5_000;

/**
 * Who fetches: an owner id (claiming sessions for {@link SESSION_LOCK_MS}), a full session
 * config, or `null` for a fetch without session routing.
 */
export type SessionClaimant = string | SessionFetchConfig | null;

/** Activity `id` of execution 1 bound to session `sessionId`. */
export function sessionActivity(
  instance: string,
  id: number,
  sessionId: string,
): WorkItemOf<'ActivityExecute'> {
  return { ...activityExecute(instance, 1, id, 'SessionActivity', '{}'), sessionId };
}

/** Activity `id` of execution 1 with no session. */
export function plainActivity(instance: string, id: number): WorkItemOf<'ActivityExecute'> {
  return activityExecute(instance, 1, id, 'PlainActivity', '{}');
}

/** Session routing for worker `ownerId`; new claims hold for `lockTimeoutMs`. */
export function sessionFetchConfig(
  ownerId: string,
  lockTimeoutMs = SESSION_LOCK_MS,
): SessionFetchConfig {
  return { ownerId, lockTimeoutMs };
}

/** A zero-wait fetch of untagged activities as `owner`. */
export function fetchAsOwner(
  provider: Provider,
  owner: SessionClaimant,
  workItemLockMs = WORK_ITEM_LOCK_MS,
): Promise<FetchedWorkItem | null> {
  const routing = typeof owner === 'string' ? sessionFetchConfig(owner) : owner;
  return provider.fetchWorkItem(workItemLockMs, 0, routing, TagFilter.defaultOnly());
}

/**
 * Fetches as `owner` and fails the validation unless an activity with the `expected` fields
 * comes back; `message` says what was expected.
 */
export async function expectFetchedAs(
  provider: Provider,
  owner: SessionClaimant,
  message: string,
  expected: ExpectedActivity = {},
): Promise<FetchedActivity> {
  const fetched = await fetchAsOwner(provider, owner);
  assertFetchedActivity(fetched, message, expected);
  return fetched;
}

/** Fetches as `owner` and fails the validation if anything comes back. */
export async function expectNothingFor(
  provider: Provider,
  owner: SessionClaimant,
  message: string,
): Promise<void> {
  expect(await fetchAsOwner(provider, owner), message).toBeNull();
}

/**
 * Claims `sessionId` for `owner`: enqueues activity `id` of `instance` in that session, fetches it
 * as the owner and acknowledges it without a completion, leaving the session owned and the
 * queue empty.
 * @throws {AssertionError} when the fetch returns nothing.
 */
export async function claimSession(
  provider: Provider,
  owner: string | SessionFetchConfig,
  sessionId: string,
  instance = 'inst-1',
  id = 1,
): Promise<void> {
  await provider.enqueueForWorker(sessionActivity(instance, id, sessionId));
  const fetched = await fetchAsOwner(provider, owner);
  assert(fetched !== null, `the owner should claim ${sessionId}`);
  await provider.ackWorkItem(fetched.lockToken, null);
}
