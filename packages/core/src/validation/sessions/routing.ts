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
 * The first `sessions` validations, in duroxide's order: which worker may fetch a session's
 * activities, and what a fetch with and without session routing returns.
 */
export const sessionRoutingValidations: Record<string, ValidationRun> = {
  non_session_items_fetchable_by_any_worker: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(plainActivity('inst-1', 1));

    await expectFetchedAs(
      provider,
      'worker-A',
      'Non-session item should be fetchable by any worker',
    );
  },

  session_item_claimable_when_no_session: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'session-1'));

    await expectFetchedAs(provider, 'worker-A', 'Unclaimed session item should be fetchable', {
      sessionId: 'session-1',
    });
  },

  session_affinity_same_worker: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, 'worker-A', 'session-1');
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'session-1'));

    await expectFetchedAs(
      provider,
      'worker-A',
      'Owned session item should be fetchable by owning worker',
    );
  },

  session_affinity_blocks_other_worker: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, 'worker-A', 'session-1');
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'session-1'));

    await expectNothingFor(
      provider,
      'worker-B',
      'Non-owning worker should not fetch owned session items',
    );
  },

  different_sessions_different_workers: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, 'worker-A', 'session-1');
    await claimSession(provider, 'worker-B', 'session-2', 'inst-2');
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'session-1'));
    await provider.enqueueForWorker(sessionActivity('inst-2', 2, 'session-2'));

    await expectFetchedAs(provider, 'worker-A', 'Worker-A should fetch session-1 item', {
      sessionId: 'session-1',
    });
    await expectFetchedAs(provider, 'worker-B', 'Worker-B should fetch session-2 item', {
      sessionId: 'session-2',
    });
  },

  mixed_session_and_non_session_items: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, 'worker-A', 'session-1');
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'session-1'));
    await provider.enqueueForWorker(plainActivity('inst-2', 1));

    await expectFetchedAs(provider, 'worker-B', 'Worker-B should get the plain item', {
      sessionId: null,
    });
  },

  session_claimable_after_lock_expiry: async ({ newProvider }) => {
    const provider = await newProvider();
    await claimSession(provider, sessionFetchConfig('worker-A', 50), 'session-1');
    await sleep(100);
    await provider.enqueueForWorker(sessionActivity('inst-1', 2, 'session-1'));

    await expectFetchedAs(provider, 'worker-B', 'Worker-B should claim expired session');
  },

  none_session_skips_session_items: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'session-1'));
    await provider.enqueueForWorker(plainActivity('inst-2', 2));

    const plain = await expectFetchedAs(
      provider,
      null,
      'Should fetch the plain (non-session) item with session=None',
      { sessionId: null, id: 2 },
    );
    await provider.ackWorkItem(plain.lockToken, null);

    await expectNothingFor(provider, null, 'Session item should be invisible to None fetch');
    await expectFetchedAs(provider, 'worker-A', 'Session item should be visible with Some config', {
      sessionId: 'session-1',
    });
  },

  some_session_returns_all_items: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(sessionActivity('inst-1', 1, 'sess-A'));
    await provider.enqueueForWorker(sessionActivity('inst-2', 2, 'sess-B'));
    await provider.enqueueForWorker(sessionActivity('inst-3', 3, 'sess-C'));
    await provider.enqueueForWorker(plainActivity('inst-4', 4));

    // Providers put no limit on how many sessions one owner claims: all four are fetchable.
    const fetchedIds: number[] = [];
    for (let i = 0; i < 4; i++) {
      const fetched = await expectFetchedAs(provider, 'shared-proc', 'Should fetch item');
      fetchedIds.push(fetched.item.id);
      await provider.ackWorkItem(fetched.lockToken, null);
    }
    expect(fetchedIds, 'All items should be fetched in FIFO order').toEqual([1, 2, 3, 4]);
    await expectNothingFor(provider, 'shared-proc', 'Queue should be empty');
  },
};
