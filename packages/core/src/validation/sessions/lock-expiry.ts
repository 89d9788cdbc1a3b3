import { assert, expect } from 'vitest';
import { activityCompleted, sleep } from '../support/fixtures.js';
import {
  claimSession,
  expectFetchedAs,
  expectNothingFor,
  fetchAsOwner,
  sessionActivity,
  sessionFetchConfig,
} from './activities.js';
import type { ValidationRun } from '../validation-group.js';

/**
 * The last `sessions` validations, in duroxide's order: how a session lock and an activity lock
 * expire independently of each other, and renewal keeping a session past its first expiry.
 */
export const sessionLockExpiryValidations: Record<string, ValidationRun> = {
  renew_session_lock_after_expiry_returns_zero: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, sessionFetchConfig('worker-A', 50), 'expired-sess');
    await sleep(100);

    expect(
      await provider.renewSessionLock(['worker-A'], 30_000, 300_000),
      'renew_session_lock should return 0 for expired session',
    ).toBe(0);
  },

  original_worker_reclaims_expired_session: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, sessionFetchConfig('worker-A', 50), 'reclaim-sess');
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'reclaim-sess'));
    await sleep(100);

    await expectFetchedAs(provider, 'worker-A', 'Original worker should re-claim expired session', {
      id: 2,
      sessionId: 'reclaim-sess',
    });
  },

  // Session affinity survives an expired activity lock: the redelivery goes to the owner.
  activity_lock_expires_session_lock_valid_same_worker_refetches: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'sticky-sess'));
    const shortWorkItemLockMs = 500;
    const held = await fetchAsOwner(provider, 'worker-A', shortWorkItemLockMs);
    assert(held !== null, 'Worker-A should fetch the session item');

    await sleep(shortWorkItemLockMs + 100);

    await expectNothingFor(
      provider,
      'worker-B',
      'Worker-B should not get session-bound item — session still owned by A',
    );
    const redelivered = await expectFetchedAs(
      provider,
      'worker-A',
      'Worker-A should reclaim the redelivered item via session affinity',
      { id: 1, attemptCount: 2 },
    );
    await provider.ackWorkItem(redelivered.lockToken, null);
  },

  // Once the session lock lapsed, a new owner claims the session and also receives the original
  // owner's activity when that one comes back.
  session_lock_expires_new_owner_gets_redelivery: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'takeover2-sess'));
    const shortSessionLockMs = 200;
    const held = await fetchAsOwner(
      provider,
      sessionFetchConfig('worker-A', shortSessionLockMs),
      5_000,
    );
    assert(held !== null, 'Worker-A should fetch the session item');

    await sleep(shortSessionLockMs + 100);
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'takeover2-sess'));

    const fresh = await expectFetchedAs(
      provider,
      'worker-B',
      'Worker-B should claim the expired session and get item 2',
      { id: 2, sessionId: 'takeover2-sess' },
    );
    await provider.ackWorkItem(fresh.lockToken, null);

    // Stands in for worker-A's activity timing out. duroxide ignores the outcome; a failed
    // abandon leaves item 1 locked and the fetch below fails.
    await provider.abandonWorkItem(held.lockToken, null, false).catch(() => undefined);

    const redelivered = await expectFetchedAs(
      provider,
      'worker-B',
      'Worker-B should get redelivered item 1 as new session owner',
      { id: 1, attemptCount: 2 },
    );
    await provider.ackWorkItem(redelivered.lockToken, null);
  },

  session_lock_expires_same_worker_reacquires: async ({ newProvider }) => {
    const provider = await newProvider();
    const shortSessionLockMs = 200;
    const owner = sessionFetchConfig('worker-A', shortSessionLockMs);
    await claimSession(provider, owner, 'reacq-sess');
    await sleep(shortSessionLockMs + 100);
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'reacq-sess'));

    const again = await expectFetchedAs(
      provider,
      owner,
      'Worker-A should reacquire its own expired session',
      { id: 2, sessionId: 'reacq-sess' },
    );
    await provider.ackWorkItem(again.lockToken, null);
  },

  both_locks_expire_different_worker_claims: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'both-expire-sess'));
    const shortLockMs = 200;
    const held = await fetchAsOwner(
      provider,
      sessionFetchConfig('worker-A', shortLockMs),
      shortLockMs,
    );
    assert(held !== null, 'Worker-A should fetch the session item');

    await sleep(shortLockMs + 200);

    const claimed = await expectFetchedAs(
      provider,
      'worker-B',
      'Worker-B should claim item after both locks expired',
      { id: 1, sessionId: 'both-expire-sess', attemptCount: 2 },
    );
    await provider.ackWorkItem(claimed.lockToken, null);
  },

  // Session ownership routes fetches; it does not govern the lock of an activity already fetched.
  session_lock_expires_activity_lock_valid_ack_succeeds: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'sess-expires'));
    const shortSessionLockMs = 200;
    const held = await fetchAsOwner(
      provider,
      sessionFetchConfig('worker-A', shortSessionLockMs),
      30_000,
    );
    assert(held !== null, 'Worker-A should fetch the session item');

    await sleep(shortSessionLockMs + 100);

    await expect(
      provider.ackWorkItem(held.lockToken, activityCompleted('inst-1', 1, 1, 'done')),
      'Ack must succeed — activity lock is still valid even though session lock expired',
    ).resolves.toBeUndefined();
  },

  // Renewed at 60% of its timeout, a session is still owned after the original expiry.
  session_lock_renewal_extends_past_original_timeout: async ({ newProvider }) => {
    const provider = await newProvider();
    const sessionLockMs = 1_000;
    await claimSession(provider, sessionFetchConfig('worker-A', sessionLockMs), 'renew-ext-sess');

    await sleep(600);
    expect(
      await provider.renewSessionLock(['worker-A'], sessionLockMs, 300_000),
      'Should renew the active session',
    ).toBe(1);

    await sleep(400);
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'renew-ext-sess'));
    await expectNothingFor(
      provider,
      'worker-B',
      'Session should still be owned by A after renewal past original timeout',
    );
    await expectFetchedAs(
      provider,
      'worker-A',
      'Worker-A should still own the session after renewal',
    );
  },
};
