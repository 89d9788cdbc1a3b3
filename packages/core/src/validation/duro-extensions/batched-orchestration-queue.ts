import { assert, expect } from 'vitest';
import type {
  FetchedOrchestrationItem,
  OrchestrationItemAck,
} from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import {
  createInstance,
  eventWithId,
  expectProviderError,
  fetchOrchestration,
  INITIAL_EXECUTION_ID,
  sleep,
} from '../support/fixtures.js';
import { defineValidationGroup } from '../validation-group.js';

const LOCK_MS = 30_000;

type BatchedProvider = Provider &
  Required<Pick<Provider, 'fetchOrchestrationItems' | 'ackOrchestrationItems'>>;

function batched(provider: Provider): BatchedProvider {
  assert(
    provider.fetchOrchestrationItems !== undefined && provider.ackOrchestrationItems !== undefined,
    `${provider.name} should implement fetchOrchestrationItems and ackOrchestrationItems`,
  );
  return provider as BatchedProvider;
}

/**
 * Running instances, each with an external event waiting: a turn to claim for every one.
 * @internal
 */
export async function instancesWithTurns(provider: Provider, instances: readonly string[]) {
  for (const instance of instances) await createInstance(provider, instance);
  for (const instance of instances) {
    await provider.enqueueForOrchestrator(
      { type: 'ExternalRaised', instance, name: 'go', data: '"payload"' },
      null,
    );
  }
}

/** A short-poll batch claim without filter. */
function fetchBatch(
  provider: BatchedProvider,
  maxItems: number,
  lockTimeoutMs = LOCK_MS,
): Promise<FetchedOrchestrationItem[]> {
  return provider.fetchOrchestrationItems(lockTimeoutMs, 0, null, maxItems);
}

/**
 * The commit of a claimed turn that records the external event it received.
 * @internal
 */
export function eventTurn(turn: FetchedOrchestrationItem): OrchestrationItemAck {
  const { instance } = turn.item;
  return {
    lockToken: turn.lockToken,
    executionId: INITIAL_EXECUTION_ID,
    historyDelta: [
      eventWithId(turn.item.history.length + 1, instance, INITIAL_EXECUTION_ID, null, {
        type: 'ExternalEvent',
        name: 'go',
        data: '"payload"',
      }),
    ],
    workerItems: [],
    orchestratorItems: [],
    metadata: {},
    cancelledActivities: [],
  };
}

const instancesOf = (turns: readonly FetchedOrchestrationItem[]): string[] =>
  turns.map((turn) => turn.item.instance);

/**
 * duro's batched orchestration queue (`Provider.fetchOrchestrationItems` and
 * `ackOrchestrationItems`, not part of the duroxide contract): a batch claims what single
 * fetches would, one instance each, and a batch ack commits each turn as `ackOrchestrationItem`
 * would, independently of the others.
 */
export const batchedOrchestrationQueue = defineValidationGroup(
  'batched_orchestration_queue',
  {
    batch_claims_distinct_instances_each_with_its_own_lock: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      const instances = ['inst-1', 'inst-2', 'inst-3', 'inst-4', 'inst-5'];
      await instancesWithTurns(provider, instances);

      const first = await fetchBatch(provider, 3);
      expect(first, 'three turns').toHaveLength(3);
      expect(new Set(first.map((turn) => turn.lockToken)).size, 'one lock per turn').toBe(3);
      for (const turn of first) {
        expect(turn.attemptCount).toBe(1);
        expect(turn.item.history.map((event) => event.kind.type)).toEqual(['OrchestrationStarted']);
        expect(turn.item.messages.map((message) => message.type)).toEqual(['ExternalRaised']);
      }
      const second = await fetchBatch(provider, 3);
      expect(second, 'locked instances are not claimed twice').toHaveLength(2);
      expect([...instancesOf(first), ...instancesOf(second)].sort()).toEqual(instances);
      expect(await fetchBatch(provider, 3), 'nothing is left').toEqual([]);
      expect(await fetchOrchestration(provider), 'nor for a single fetch').toBeNull();
    },

    batch_skips_an_instance_a_single_fetch_holds: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await instancesWithTurns(provider, ['inst-1', 'inst-2']);
      const held = await fetchOrchestration(provider);
      assert(held !== null, 'a single fetch should claim one turn');

      const batch = await fetchBatch(provider, 5);

      expect(instancesOf(batch)).toEqual(
        ['inst-1', 'inst-2'].filter((instance) => instance !== held.item.instance),
      );
    },

    batch_ack_commits_each_turn_on_its_own: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await instancesWithTurns(provider, ['inst-1', 'inst-2', 'inst-3']);
      const turns = await fetchBatch(provider, 3, 1_000);
      const [kept, lapsed, alsoKept] = turns;
      assert(kept && lapsed && alsoKept, 'three turns should be claimed');
      await provider.renewOrchestrationItemLock(kept.lockToken, LOCK_MS);
      await provider.renewOrchestrationItemLock(alsoKept.lockToken, LOCK_MS);
      await sleep(1_200);

      const outcomes = await provider.ackOrchestrationItems(turns.map(eventTurn));

      expect(outcomes[0]).toEqual({ ok: true });
      expect(outcomes[2]).toEqual({ ok: true });
      const failed = outcomes[1];
      assert(failed !== undefined && !failed.ok, 'the turn whose lock lapsed should fail');
      expect(failed.error.retryable).toBe(false);
      expect(failed.error.message).toContain('Invalid lock token');
      for (const turn of [kept, alsoKept]) {
        expect((await provider.read(turn.item.instance)).length, 'committed turns').toBe(2);
      }
      expect((await provider.read(lapsed.item.instance)).length, 'the failed turn').toBe(1);
      const again = await fetchOrchestration(provider);
      expect(again?.item.instance, 'the failed turn is delivered again').toBe(lapsed.item.instance);
      expect(again?.attemptCount).toBe(2);
    },

    batch_ack_refuses_a_lock_token_given_twice: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      await instancesWithTurns(provider, ['inst-1']);
      const [turn] = await fetchBatch(provider, 1);
      assert(turn !== undefined, 'one turn should be claimed');
      const ack = eventTurn(turn);

      const error = await expectProviderError(
        provider.ackOrchestrationItems([ack, ack]),
        'the same lock twice',
      );

      expect(error.retryable).toBe(false);
      expect(error.message).toContain('acknowledged twice');
      expect((await provider.read('inst-1')).length, 'nothing was written').toBe(1);
      expect(await provider.ackOrchestrationItems([ack])).toEqual([{ ok: true }]);
    },

    batch_fetch_refuses_a_limit_below_one: async ({ newProvider }) => {
      const provider = batched(await newProvider());
      const error = await expectProviderError(fetchBatch(provider, 0), 'maxItems 0');
      expect(error.retryable).toBe(false);
      expect(error.message).toContain('maxItems');
    },
  },
  'batchedOrchestrationQueue',
);
