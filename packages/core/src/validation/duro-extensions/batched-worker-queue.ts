import { assert, expect } from 'vitest';
import type { WorkItemOf } from '../../model/work-item.js';
import { TagFilter, type SessionFetchConfig } from '../../provider/fetch-filters.js';
import type { FetchedWorkItem } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import {
  activityCompleted,
  activityExecute,
  expectProviderError,
  fetchActivity,
  fetchOrchestration,
  sleep,
  startItem,
} from '../support/fixtures.js';
import { defineValidationGroup } from '../validation-group.js';

const LOCK_MS = 30_000;

type BatchedProvider = Provider & Required<Pick<Provider, 'fetchWorkItems' | 'ackWorkItems'>>;

function batched(provider: Provider): BatchedProvider {
  assert(
    provider.fetchWorkItems !== undefined && provider.ackWorkItems !== undefined,
    `${provider.name} should implement fetchWorkItems and ackWorkItems`,
  );
  return provider as BatchedProvider;
}

function activity(
  instance: string,
  id: number,
  extra: { readonly sessionId?: string; readonly tag?: string } = {},
): WorkItemOf<'ActivityExecute'> {
  return { ...activityExecute(instance, 1, id, `Activity${id}`, '{}'), ...extra };
}

async function enqueue(provider: Provider, items: readonly WorkItemOf<'ActivityExecute'>[]) {
  for (const item of items) await provider.enqueueForWorker(item);
}

/** A short-poll batch fetch: untagged activities, no sessions unless given. */
function fetchBatch(
  provider: BatchedProvider,
  maxItems: number,
  options: {
    readonly lockTimeoutMs?: number;
    readonly session?: SessionFetchConfig | null;
    readonly tagFilter?: TagFilter;
    readonly maxNewSessions?: number;
  } = {},
): Promise<FetchedWorkItem[]> {
  return provider.fetchWorkItems(
    options.lockTimeoutMs ?? LOCK_MS,
    0,
    options.session ?? null,
    options.tagFilter ?? TagFilter.defaultOnly(),
    maxItems,
    options.maxNewSessions ?? maxItems,
  );
}

/** The activity ids of fetched items, in the order they came. */
function ids(fetched: readonly FetchedWorkItem[]): number[] {
  return fetched.map(({ item }) => (item.type === 'ActivityExecute' ? item.id : -1));
}

/** The completion a worker would acknowledge for a fetched activity. */
function completionOf(fetched: FetchedWorkItem): WorkItemOf<'ActivityCompleted'> {
  const { item } = fetched;
  assert(item.type === 'ActivityExecute', `expected ActivityExecute, got ${item.type}`);
  return activityCompleted(item.instance, item.executionId, item.id, `"done ${item.id}"`);
}

/** The ids of the activity completions waiting for `instance` (behind its start). */
async function completedIds(provider: Provider, instance: string): Promise<number[]> {
  const turn = await fetchOrchestration(provider);
  assert(turn !== null, `a turn of ${instance} should be fetchable`);
  expect(turn.item.instance).toBe(instance);
  return turn.item.messages.flatMap((message) =>
    message.type === 'ActivityCompleted' ? [message.id] : [],
  );
}

function owner(ownerId: string): SessionFetchConfig {
  return { ownerId, lockTimeoutMs: LOCK_MS };
}

/**
 * duro's batched worker queue (`Provider.fetchWorkItems` and `ackWorkItems`, not part of the
 * duroxide contract): a batch claims what single fetches would, item by item, and a batch ack
 * commits each item as `ackWorkItem` would, independently of the others.
 */
export const batchedWorkerQueue = defineValidationGroup(
  'batched_worker_queue',
  {
    batch_claims_oldest_first_each_with_its_own_lock: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await enqueue(
        provider,
        [1, 2, 3, 4, 5].map((id) => activity('inst-1', id)),
      );

      const first = await fetchBatch(provider, 3);
      expect(ids(first), 'the three oldest activities').toEqual([1, 2, 3]);
      expect(new Set(first.map((f) => f.lockToken)).size, 'one lock token per item').toBe(3);
      expect(first.map((f) => f.attemptCount)).toEqual([1, 1, 1]);

      expect(ids(await fetchBatch(provider, 3)), 'locked items are not claimed twice').toEqual([
        4, 5,
      ]);
      expect(await fetchBatch(provider, 3), 'nothing is left').toEqual([]);
      for (const fetched of first) await provider.renewWorkItemLock(fetched.lockToken, LOCK_MS);
    },

    batch_respects_visibility_and_lock_expiry: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await enqueue(
        provider,
        [1, 2, 3].map((id) => activity('inst-1', id)),
      );
      const single = await fetchActivity(provider, 1_000);
      assert(single !== null, 'the first activity should be fetchable');
      const delayed = await fetchBatch(provider, 1);
      expect(ids(delayed)).toEqual([2]);
      await provider.abandonWorkItem(delayed[0]?.lockToken ?? '', 60_000, false);

      expect(ids(await fetchBatch(provider, 10)), 'locked and delayed items are skipped').toEqual([
        3,
      ]);
      await sleep(1_200);
      const expired = await fetchBatch(provider, 10);
      expect(ids(expired), 'an expired lock makes its item claimable again').toEqual([1]);
      expect(expired[0]?.attemptCount, 'the attempt is counted again').toBe(2);
      await expectProviderError(
        provider.ackWorkItem(single.lockToken, null),
        'the first lock is no longer valid',
      );
    },

    batch_respects_tag_filter: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await enqueue(provider, [
        activity('inst-1', 1),
        activity('inst-1', 2, { tag: 'gpu' }),
        activity('inst-1', 3, { tag: 'cpu' }),
        activity('inst-1', 4),
      ]);
      expect(ids(await fetchBatch(provider, 10, { tagFilter: TagFilter.tags(['gpu']) }))).toEqual([
        2,
      ]);
      expect(ids(await fetchBatch(provider, 10))).toEqual([1, 4]);
      expect(ids(await fetchBatch(provider, 10, { tagFilter: TagFilter.any() }))).toEqual([3]);
      expect(await fetchBatch(provider, 10, { tagFilter: TagFilter.none() })).toEqual([]);
    },

    batch_routes_sessions_and_limits_new_ones: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await enqueue(provider, [
        activity('inst-1', 1, { sessionId: 'a' }),
        activity('inst-1', 2),
        activity('inst-1', 3, { sessionId: 'b' }),
        activity('inst-1', 4, { sessionId: 'a' }),
        activity('inst-1', 5, { sessionId: 'c' }),
      ]);
      expect(ids(await fetchBatch(provider, 10)), 'without sessions: session-free only').toEqual([
        2,
      ]);
      const mine = await fetchBatch(provider, 10, { session: owner('w1'), maxNewSessions: 1 });
      expect(ids(mine), 'one new session, with all of its items').toEqual([1, 4]);
      expect(
        await fetchBatch(provider, 10, { session: owner('w2'), maxNewSessions: 0 }),
        'no new session allowed: nothing',
      ).toEqual([]);
      const theirs = await fetchBatch(provider, 10, { session: owner('w2'), maxNewSessions: 5 });
      expect(ids(theirs), "another owner never gets w1's session").toEqual([3, 5]);

      await enqueue(provider, [activity('inst-1', 6, { sessionId: 'a' })]);
      expect(ids(await fetchBatch(provider, 10, { session: owner('w2') }))).toEqual([]);
      expect(
        ids(await fetchBatch(provider, 10, { session: owner('w1'), maxNewSessions: 0 })),
        'an owned session needs no new-session allowance',
      ).toEqual([6]);
    },

    batch_ack_commits_each_completion_once: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await provider.enqueueForOrchestrator(startItem('inst-1'), null);
      await enqueue(
        provider,
        [1, 2, 3].map((id) => activity('inst-1', id)),
      );
      const fetched = await fetchBatch(provider, 3);
      const acks = fetched.map((f) => ({ lockToken: f.lockToken, completion: completionOf(f) }));

      expect(await provider.ackWorkItems(acks)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
      const again = await provider.ackWorkItems(acks);
      expect(
        again.map((outcome) => outcome.ok),
        'a second ack of each fails',
      ).toEqual([false, false, false]);
      expect(await completedIds(provider, 'inst-1'), 'one completion each, in order').toEqual([
        1, 2, 3,
      ]);
      expect(await fetchActivity(provider), 'acknowledged items are gone').toBeNull();
    },

    batch_ack_item_failures_are_independent: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await provider.enqueueForOrchestrator(startItem('inst-1'), null);
      await enqueue(
        provider,
        [1, 2, 3].map((id) => activity('inst-1', id)),
      );
      const [first, second, third] = await fetchBatch(provider, 3);
      assert(first && second && third, 'three activities should be claimed');
      await provider.abandonWorkItem(second.lockToken, null, false);

      const outcomes = await provider.ackWorkItems([
        { lockToken: first.lockToken, completion: completionOf(first) },
        { lockToken: second.lockToken, completion: completionOf(second) },
        { lockToken: third.lockToken, completion: null },
      ]);
      expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true]);
      expect(await completedIds(provider, 'inst-1'), 'only the live lock enqueued').toEqual([1]);
      const redelivered = await fetchActivity(provider);
      expect(redelivered?.item, 'the abandoned item is still queued').toMatchObject({ id: 2 });

      await expectProviderError(
        provider.ackWorkItems([
          { lockToken: first.lockToken, completion: null },
          { lockToken: first.lockToken, completion: null },
        ]),
        'a token acknowledged twice in one batch',
      );
    },

    partly_abandoned_batch_loses_nothing: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await enqueue(
        provider,
        [1, 2, 3, 4].map((id) => activity('inst-1', id)),
      );
      // A worker claims four, finishes one, gives one back, and dies holding two.
      const [done, givenBack] = await fetchBatch(provider, 4, { lockTimeoutMs: 1_000 });
      assert(done && givenBack, 'four activities should be claimed');
      expect(
        await provider.ackWorkItems([{ lockToken: done.lockToken, completion: null }]),
      ).toEqual([{ ok: true }]);
      await provider.abandonWorkItem(givenBack.lockToken, null, true);
      expect(ids(await fetchBatch(provider, 10)), 'the given-back item at once').toEqual([2]);
      await sleep(1_200);
      const recovered = await fetchBatch(provider, 10);
      expect(ids(recovered), 'the crashed worker’s items after their locks lapse').toEqual([3, 4]);
      expect(recovered.map((f) => f.attemptCount)).toEqual([2, 2]);
    },
  },
  'batchedWorkerQueue',
);
