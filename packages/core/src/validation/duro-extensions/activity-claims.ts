import { assert, expect } from 'vitest';
import type { WorkItem, WorkItemOf } from '../../model/work-item.js';
import type { ActivityClaim } from '../../provider/activity-claim.js';
import { TagFilter } from '../../provider/fetch-filters.js';
import type {
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
} from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { eventTurn, instancesWithTurns } from './batched-orchestration-queue.js';
import {
  activityCompleted,
  activityExecute,
  INITIAL_EXECUTION_ID,
  sleep,
} from '../support/fixtures.js';
import { defineValidationGroup } from '../validation-group.js';

const LOCK_MS = 30_000;

type ClaimingProvider = Provider &
  Required<Pick<Provider, 'fetchOrchestrationItems' | 'ackOrchestrationItems' | 'fetchWorkItems'>>;

function claiming(provider: Provider): ClaimingProvider {
  assert(
    provider.fetchOrchestrationItems !== undefined &&
      provider.ackOrchestrationItems !== undefined &&
      provider.fetchWorkItems !== undefined,
    `${provider.name} should implement the batched queues`,
  );
  return provider as ClaimingProvider;
}

function activity(
  instance: string,
  id: number,
  routing: { sessionId?: string; tag?: string } = {},
): WorkItemOf<'ActivityExecute'> {
  return { ...activityExecute(instance, INITIAL_EXECUTION_ID, id, 'Work', `${id}`), ...routing };
}

/**
 * Running instances, each with a turn claimed in one batch; returns, in claim order, each turn's
 * commit that records its external event and schedules the activities `scheduled` gives it.
 */
async function turnsScheduling(
  provider: ClaimingProvider,
  scheduled: Record<string, readonly WorkItemOf<'ActivityExecute'>[]>,
): Promise<OrchestrationItemAck[]> {
  const instances = Object.keys(scheduled);
  await instancesWithTurns(provider, instances);
  const turns = await provider.fetchOrchestrationItems(LOCK_MS, 0, null, instances.length);
  expect(turns, 'one turn per instance').toHaveLength(instances.length);
  return turns.map((turn) => ({
    ...eventTurn(turn),
    workerItems: scheduled[turn.item.instance] ?? [],
  }));
}

const claimOf = (maxItems: number, lockTimeoutMs = LOCK_MS): ActivityClaim => ({
  maxItems,
  lockTimeoutMs,
  tagFilter: TagFilter.defaultOnly(),
});

/** `instance#id` of an activity work item. */
function activityName(item: WorkItem): string {
  return item.type === 'ActivityExecute' ? `${item.instance}#${item.id}` : item.type;
}

/** The activities each committed turn says were claimed for the caller. */
function claimedNames(outcomes: readonly OrchestrationItemAckOutcome[]): string[][] {
  return outcomes.map((outcome) => {
    if (!outcome.ok) throw outcome.error;
    return (outcome.claimedActivities ?? []).map(({ item }) => activityName(item));
  });
}

/** What another worker fetches now, of any tag and any free session. */
async function fetchedByAnother(provider: ClaimingProvider): Promise<string[]> {
  const fetched = await provider.fetchWorkItems(
    LOCK_MS,
    0,
    { ownerId: 'another-worker', lockTimeoutMs: LOCK_MS },
    TagFilter.any(),
    20,
    5,
  );
  return fetched.map(({ item }) => activityName(item)).sort();
}

/**
 * duro's activity claims (`Provider.ackOrchestrationItems` with an `ActivityClaim`), for a
 * provider that writes the activities a batch schedules already claimed for the caller.
 */
export const activityClaims = defineValidationGroup(
  'activity_claims',
  {
    claims_in_order_up_to_max_items_without_sessions_within_the_tag_filter: async ({
      newProvider,
    }) => {
      const provider = claiming(await newProvider());
      const acks = await turnsScheduling(provider, {
        'inst-1': [activity('inst-1', 3), activity('inst-1', 4, { sessionId: 's-1' })],
        'inst-2': [activity('inst-2', 3, { tag: 'gpu' }), activity('inst-2', 4)],
        'inst-3': [activity('inst-3', 3), activity('inst-3', 4)],
      });

      const outcomes = await provider.ackOrchestrationItems(acks, claimOf(3));

      const claimed = claimedNames(outcomes);
      const expectedInOrder = acks
        .flatMap((ack) => ack.workerItems)
        .filter((item) => item.type === 'ActivityExecute' && !item.sessionId && !item.tag)
        .slice(0, 3)
        .map(activityName);
      expect(claimed.flat(), "the first three the claim takes, in the turns' order").toEqual(
        expectedInOrder,
      );
      expect(claimed.flat(), 'not the session activity').not.toContain('inst-1#4');
      expect(claimed.flat(), 'not the tagged activity').not.toContain('inst-2#3');
      for (const outcome of outcomes) {
        for (const item of outcome.ok ? (outcome.claimedActivities ?? []) : []) {
          expect(item.attemptCount, 'a claim counts one attempt').toBe(1);
        }
      }
      const all = acks.flatMap((ack) => ack.workerItems.map(activityName));
      expect(await fetchedByAnother(provider), 'another worker fetches the rest').toEqual(
        all.filter((name) => !expectedInOrder.includes(name)).sort(),
      );
    },

    a_claimed_activity_is_acknowledged_with_its_lock_token: async ({ newProvider }) => {
      const provider = claiming(await newProvider());
      const acks = await turnsScheduling(provider, { 'inst-1': [activity('inst-1', 3)] });
      const [outcome] = await provider.ackOrchestrationItems(acks, claimOf(1));
      assert(outcome?.ok === true, 'the turn should commit');
      const [claimed] = outcome.claimedActivities ?? [];
      assert(claimed !== undefined, 'the activity should be claimed');

      await provider.ackWorkItem(
        claimed.lockToken,
        activityCompleted('inst-1', INITIAL_EXECUTION_ID, 3, '"done"'),
      );

      const turn = await provider.fetchOrchestrationItem(LOCK_MS, 0, null);
      expect(turn?.item.messages.map((message) => message.type)).toEqual(['ActivityCompleted']);
      expect(await fetchedByAnother(provider), 'the activity is gone').toEqual([]);
    },

    a_claimed_activity_whose_lease_lapsed_is_fetched_as_its_second_attempt: async ({
      newProvider,
    }) => {
      const provider = claiming(await newProvider());
      const acks = await turnsScheduling(provider, { 'inst-1': [activity('inst-1', 3)] });
      const outcomes = await provider.ackOrchestrationItems(acks, claimOf(1, 200));
      expect(claimedNames(outcomes)).toEqual([['inst-1#3']]);
      expect(await fetchedByAnother(provider), 'held by the claim').toEqual([]);

      await sleep(300);
      const again = await provider.fetchWorkItems(LOCK_MS, 0, null, TagFilter.defaultOnly(), 5, 0);

      expect(again.map(({ item, attemptCount }) => [activityName(item), attemptCount])).toEqual([
        ['inst-1#3', 2],
      ]);
    },

    an_ack_refuses_a_claim_of_no_items: async ({ newProvider }) => {
      const provider = claiming(await newProvider());
      const acks = await turnsScheduling(provider, { 'inst-1': [activity('inst-1', 3)] });
      await expect(provider.ackOrchestrationItems(acks, claimOf(0))).rejects.toThrow(/maxItems/);
      expect(claimedNames(await provider.ackOrchestrationItems(acks, claimOf(1)))).toEqual([
        ['inst-1#3'],
      ]);
    },
  },
  'activityClaims',
);
