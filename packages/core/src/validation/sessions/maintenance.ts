import { expect } from 'vitest';
import type { Provider } from '../../provider/provider.js';
import { activityCompleted, sleep } from '../support/fixtures.js';
import {
  claimSession,
  expectFetchedAs,
  sessionActivity,
  sessionFetchConfig,
} from './activities.js';
import type { ValidationRun } from '../validation-group.js';

const RENEW_FOR_MS = 30_000;
const LONG_IDLE_MS = 300_000;

/** How many of worker-A's sessions a renewal extends when idleness is judged over `idleMs`. */
function renewWorkerA(provider: Provider, idleMs: number): Promise<number> {
  return provider.renewSessionLock(['worker-A'], RENEW_FOR_MS, idleMs);
}

/** Claims session-1 for worker-A with `sessionLockMs`, waits `waitMs` and runs a cleanup. */
async function cleanupAfterClaim(
  provider: Provider,
  sessionLockMs: number,
  waitMs: number,
  beforeWaiting: () => Promise<void> = async () => undefined,
): Promise<number> {
  await claimSession(provider, sessionFetchConfig('worker-A', sessionLockMs), 'session-1');
  await beforeWaiting();
  await sleep(waitMs);
  return provider.cleanupOrphanedSessions(LONG_IDLE_MS);
}

/**
 * Fetches a session-1 activity as worker-A, then waits longer than `idleWindowMs` so that the
 * fetch alone no longer counts as recent activity. Returns the activity's lock token.
 */
async function fetchThenGoIdle(provider: Provider, idleWindowMs: number): Promise<string> {
  await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'session-1'));
  const fetched = await expectFetchedAs(provider, 'worker-A', 'worker-A should fetch session-1');
  await sleep(idleWindowMs + 50);
  return fetched.lockToken;
}

/**
 * The middle `sessions` validations, in duroxide's order: session lock renewal, cleanup of
 * orphaned sessions, and activity acks and lock renewals counting as session activity.
 */
export const sessionMaintenanceValidations: Record<string, ValidationRun> = {
  renew_session_lock_active: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, sessionFetchConfig('worker-A', 5_000), 'session-1');

    expect(await renewWorkerA(provider, LONG_IDLE_MS), 'Should renew 1 active session').toBe(1);

    await claimSession(provider, 'worker-A', 'session-2', 'inst-2');
    expect(await renewWorkerA(provider, LONG_IDLE_MS), 'Should renew 2 active sessions').toBe(2);
  },

  renew_session_lock_skips_idle: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, 'worker-A', 'session-1');

    // With an idle timeout of 0 every session counts as idle.
    expect(await renewWorkerA(provider, 0), 'Should skip idle session').toBe(0);
  },

  renew_session_lock_no_sessions: async ({ newProvider }) => {
    const provider = await newProvider();

    expect(
      await renewWorkerA(provider, LONG_IDLE_MS),
      'Worker with no sessions should renew 0',
    ).toBe(0);
  },

  cleanup_removes_expired_no_items: async ({ newProvider }) => {
    const provider = await newProvider();

    expect(await cleanupAfterClaim(provider, 50, 100), 'Should clean up 1 expired session').toBe(1);
  },

  cleanup_keeps_sessions_with_pending_items: async ({ newProvider }) => {
    const provider = await newProvider();
    const removed = await cleanupAfterClaim(provider, 50, 100, () =>
      provider.enqueueForWorker(sessionActivity('inst-1', 2, 'session-1')),
    );

    expect(removed, 'Should not clean up session with pending items').toBe(0);
  },

  cleanup_keeps_active_sessions: async ({ newProvider }) => {
    const provider = await newProvider();

    expect(
      await cleanupAfterClaim(provider, LONG_IDLE_MS, 0),
      'Should not clean up active session',
    ).toBe(0);
  },

  // The tight idle window proves the ack refreshed the session's last activity: without that,
  // the session would look idle and the renewal would extend nothing.
  ack_updates_session_last_activity: async ({ newProvider }) => {
    const provider = await newProvider();
    const idleWindowMs = 200;
    const lockToken = await fetchThenGoIdle(provider, idleWindowMs);

    await provider.ackWorkItem(lockToken, activityCompleted('inst-1', 1, 1, 'ok'));

    expect(
      await renewWorkerA(provider, idleWindowMs),
      'Session should be active — ack must have updated last_activity_at',
    ).toBe(1);
  },

  renew_work_item_updates_session_last_activity: async ({ newProvider }) => {
    const provider = await newProvider();
    const idleWindowMs = 200;
    const lockToken = await fetchThenGoIdle(provider, idleWindowMs);

    await provider.renewWorkItemLock(lockToken, RENEW_FOR_MS);

    expect(
      await renewWorkerA(provider, idleWindowMs),
      'Session should be active — work item lock renewal must have updated last_activity_at',
    ).toBe(1);
  },
};
