import { expect } from 'vitest';
import { sleep } from '../support/fixtures.js';
import {
  claimSession,
  expectFetchedAs,
  expectNothingFor,
  plainActivity,
  sessionActivity,
  sessionFetchConfig,
} from './activities.js';
import type { ValidationRun } from '../validation-group.js';

/**
 * The `sessions` validations that follow maintenance, in duroxide's order: ordering within a
 * session, owner identity shared by a process, contested and expired claims, re-creation after
 * cleanup, and abandoned session activities.
 */
export const sessionOwnershipValidations: Record<string, ValidationRun> = {
  session_items_processed_in_order: async ({ newProvider }) => {
    const provider = await newProvider();
    for (const id of [1, 2, 3]) {
      await provider.enqueueForWorker(sessionActivity('inst-1', id, 'session-1'));
    }

    for (const id of [1, 2, 3]) {
      const fetched = await expectFetchedAs(
        provider,
        'worker-A',
        `Should fetch item ${id} (FIFO)`,
        {
          id,
        },
      );
      await provider.ackWorkItem(fetched.lockToken, null);
    }
  },

  non_session_items_returned_with_session_config: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, 'worker-A', 'session-1');
    await provider.enqueueForWorker(plainActivity('inst-2', 1));

    await expectFetchedAs(
      provider,
      'worker-A',
      'Non-session items should be returned with session config',
      { sessionId: null },
    );
  },

  // Every slot of one process fetches with the same owner id; any of them may take the session's
  // next activity.
  shared_worker_id_any_caller_can_fetch_owned_session: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'shared-sess'));
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'shared-sess'));

    for (const id of [1, 2]) {
      const fetched = await expectFetchedAs(provider, 'process-1', `process-1 gets item ${id}`, {
        id,
      });
      await provider.ackWorkItem(fetched.lockToken, null);
    }

    await provider.enqueueForWorker(sessionActivity('inst-1', 3, 'shared-sess'));
    await expectNothingFor(
      provider,
      'process-2',
      'Different process should not get items for an owned session',
    );
  },

  concurrent_session_claim_only_one_wins: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'contested-sess'));
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'contested-sess'));

    const claimed = await expectFetchedAs(
      provider,
      'worker-A',
      'Worker-A should claim the session',
    );
    await expectNothingFor(
      provider,
      'worker-B',
      'Worker-B should NOT get session items while A holds the session lock',
    );
    await provider.ackWorkItem(claimed.lockToken, null);
  },

  session_takeover_after_lock_expiry: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, sessionFetchConfig('worker-A', 50), 'takeover-sess');
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'takeover-sess'));
    await sleep(100);

    await expectFetchedAs(
      provider,
      'worker-B',
      "Worker-B should take over session after A's lock expired",
      { sessionId: 'takeover-sess' },
    );
  },

  cleanup_then_new_item_recreates_session: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, sessionFetchConfig('worker-A', 50), 'ephemeral-sess');
    await sleep(100);
    expect(
      await provider.cleanupOrphanedSessions(300_000),
      'Should clean up the expired session',
    ).toBe(1);

    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'ephemeral-sess'));
    await expectFetchedAs(provider, 'worker-B', 'Session should be re-creatable after cleanup', {
      sessionId: 'ephemeral-sess',
      id: 2,
    });
  },

  abandoned_session_item_retryable: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'retry-sess'));

    const first = await expectFetchedAs(provider, 'worker-A', 'first delivery', {
      id: 1,
      attemptCount: 1,
    });
    await provider.abandonWorkItem(first.lockToken, null, false);

    const retry = await expectFetchedAs(
      provider,
      'worker-A',
      'Retry should increment attempt count',
      {
        id: 1,
        attemptCount: 2,
      },
    );
    await provider.ackWorkItem(retry.lockToken, null);

    await expectNothingFor(provider, 'worker-A', 'No items should remain after successful ack');
  },

  // The runtime abandons with ignoreAttempt when it lost a session-capacity race: that must not
  // count towards poisoning.
  abandoned_session_item_ignore_attempt: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'ignore-sess'));

    const first = await expectFetchedAs(provider, 'worker-A', 'first delivery', {
      attemptCount: 1,
    });
    await provider.abandonWorkItem(first.lockToken, 1, true);
    await sleep(10);

    const again = await expectFetchedAs(
      provider,
      'worker-A',
      'ignore_attempt should not inflate attempt count',
      { attemptCount: 1 },
    );
    await provider.ackWorkItem(again.lockToken, null);
  },
};
