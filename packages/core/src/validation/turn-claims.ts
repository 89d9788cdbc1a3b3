import { assert, expect } from 'vitest';
import type { WorkItemOf } from '../model/work-item.js';
import { TagFilter } from '../provider/fetch-filters.js';
import type {
  FetchedOrchestrationItem,
  OrchestrationItemAck,
} from '../provider/orchestration-item.js';
import type { Provider } from '../provider/provider.js';
import type { RunClaimedTurns, TurnClaim } from '../provider/turn-claim.js';
import {
  activityCompleted,
  activityExecute,
  createInstance,
  eventWithId,
  INITIAL_EXECUTION_ID,
} from './fixtures.js';
import type { ProviderFactory } from './provider-factory.js';
import { defineValidationGroup, describeValidationGroup } from './validation-group.js';

const LOCK_MS = 30_000;
const CLAIM: TurnClaim = { maxItems: 8, lockTimeoutMs: LOCK_MS, filter: null };

type TurnClaimingProvider = Provider &
  Required<
    Pick<Provider, 'ackWorkItemsRunningTurns' | 'fetchWorkItems' | 'fetchOrchestrationItems'>
  >;

function turnClaiming(provider: Provider): TurnClaimingProvider {
  assert(
    provider.ackWorkItemsRunningTurns !== undefined &&
      provider.fetchWorkItems !== undefined &&
      provider.fetchOrchestrationItems !== undefined,
    `${provider.name} should implement ackWorkItemsRunningTurns and the batched queues`,
  );
  return provider as TurnClaimingProvider;
}

/** The completion of activity 2 of `instance`. */
const completion = (instance: string): WorkItemOf<'ActivityCompleted'> =>
  activityCompleted(instance, INITIAL_EXECUTION_ID, 2, '"done"');

/** A running `instance` whose activity 2 is claimed; returns the activity's lock token. */
async function runningActivity(provider: TurnClaimingProvider, instance: string): Promise<string> {
  await createInstance(provider, instance);
  await provider.enqueueForWorker(activityExecute(instance, INITIAL_EXECUTION_ID, 2, 'Work', '2'));
  const [activity] = await provider.fetchWorkItems(LOCK_MS, 0, null, TagFilter.defaultOnly(), 1, 0);
  assert(activity !== undefined, `activity 2 of ${instance} should be fetched`);
  return activity.lockToken;
}

/** The commit of a claimed turn that records the completion and keeps running. */
function recordingCompletion(turn: FetchedOrchestrationItem): OrchestrationItemAck {
  const { instance } = turn.item;
  return {
    lockToken: turn.lockToken,
    executionId: INITIAL_EXECUTION_ID,
    historyDelta: [
      eventWithId(turn.item.history.length + 1, instance, INITIAL_EXECUTION_ID, 2, {
        type: 'ActivityCompleted',
        result: '"done"',
      }),
    ],
    workerItems: [],
    orchestratorItems: [],
    metadata: {},
    cancelledActivities: [],
  };
}

/** The turns a fetch claims now, as `[instance, message types, attempt count]`. */
async function fetchedTurns(provider: TurnClaimingProvider): Promise<[string, string[], number][]> {
  const turns = await provider.fetchOrchestrationItems(LOCK_MS, 0, null, 8);
  return turns.map(({ item, attemptCount }) => [
    item.instance,
    item.messages.map((message) => message.type),
    attemptCount,
  ]);
}

/**
 * duro's turns run by an activity acknowledgement (`Provider.ackWorkItemsRunningTurns`, not part
 * of the duroxide contract): the acknowledgement claims the turns its completions wake, as a
 * fetch would, and hands them to the runner, whose first commit commits everything.
 */
export const turnClaims = defineValidationGroup('turn_claims', {
  claims_the_woken_turn_and_commits_it_with_the_completion: async ({ newProvider }) => {
    const provider = turnClaiming(await newProvider());
    const lockToken = await runningActivity(provider, 'inst-1');
    const claimed: [string, string[], number][] = [];

    const outcomes = await provider.ackWorkItemsRunningTurns(
      [{ lockToken, completion: completion('inst-1') }],
      CLAIM,
      async (turns, commit) => {
        for (const { item, attemptCount } of turns) {
          claimed.push([item.instance, item.messages.map((message) => message.type), attemptCount]);
        }
        const committed = await commit(turns.map(recordingCompletion));
        expect(committed.map((outcome) => outcome.ok)).toEqual([true]);
      },
    );

    expect(outcomes).toEqual([{ ok: true }]);
    expect(claimed, 'the turn, with the completion, as its first attempt').toEqual([
      ['inst-1', ['ActivityCompleted'], 1],
    ]);
    expect(await fetchedTurns(provider), 'the completion was consumed').toEqual([]);
    const history = await provider.read('inst-1');
    expect(history.map((event) => event.kind.type)).toEqual([
      'OrchestrationStarted',
      'ActivityCompleted',
    ]);
  },

  a_turn_the_runner_leaves_is_given_back_without_counting_an_attempt: async ({ newProvider }) => {
    const provider = turnClaiming(await newProvider());
    const lockToken = await runningActivity(provider, 'inst-1');
    let handed = 0;

    const outcomes = await provider.ackWorkItemsRunningTurns(
      [{ lockToken, completion: completion('inst-1') }],
      CLAIM,
      async (turns) => {
        handed = turns.length;
      },
    );

    expect({ outcomes, handed }).toEqual({ outcomes: [{ ok: true }], handed: 1 });
    expect(await fetchedTurns(provider)).toEqual([['inst-1', ['ActivityCompleted'], 1]]);
  },

  a_claimed_turn_is_renewed_and_abandoned_while_it_runs: async ({ newProvider }) => {
    const provider = turnClaiming(await newProvider());
    const lockToken = await runningActivity(provider, 'inst-1');

    await provider.ackWorkItemsRunningTurns(
      [{ lockToken, completion: completion('inst-1') }],
      CLAIM,
      async ([turn]) => {
        assert(turn !== undefined, 'the turn should be claimed');
        await provider.renewOrchestrationItemLock(turn.lockToken, LOCK_MS);
        await provider.abandonOrchestrationItem(turn.lockToken, null, false);
      },
    );

    expect(await fetchedTurns(provider), 'the abandon counted its attempt').toEqual([
      ['inst-1', ['ActivityCompleted'], 2],
    ]);
  },

  a_runner_that_fails_leaves_the_acknowledgement_standing: async ({ newProvider }) => {
    const provider = turnClaiming(await newProvider());
    const lockToken = await runningActivity(provider, 'inst-1');
    const failing: RunClaimedTurns = () => Promise.reject(new Error('the runner broke'));

    const outcomes = await provider.ackWorkItemsRunningTurns(
      [{ lockToken, completion: completion('inst-1') }],
      CLAIM,
      failing,
    );

    expect(outcomes).toEqual([{ ok: true }]);
    expect(await fetchedTurns(provider)).toEqual([['inst-1', ['ActivityCompleted'], 1]]);
    await expect(
      provider.ackWorkItem(lockToken, completion('inst-1')),
      'the activity is acknowledged',
    ).rejects.toThrow();
  },

  an_instance_another_turn_holds_is_not_claimed: async ({ newProvider }) => {
    const provider = turnClaiming(await newProvider());
    const lockToken = await runningActivity(provider, 'inst-1');
    await provider.enqueueForOrchestrator(
      { type: 'ExternalRaised', instance: 'inst-1', name: 'go', data: '"payload"' },
      null,
    );
    const held = await provider.fetchOrchestrationItem(LOCK_MS, 0, null);
    expect(held?.item.instance).toBe('inst-1');
    let handed = 0;

    const outcomes = await provider.ackWorkItemsRunningTurns(
      [{ lockToken, completion: completion('inst-1') }],
      CLAIM,
      async (turns) => {
        handed += turns.length;
      },
    );

    expect({ outcomes, handed }).toEqual({ outcomes: [{ ok: true }], handed: 0 });
    assert(held !== null);
    await provider.abandonOrchestrationItem(held.lockToken, null, true);
    expect(await fetchedTurns(provider), 'the completion waits for a fetch').toEqual([
      ['inst-1', ['ExternalRaised', 'ActivityCompleted'], 1],
    ]);
  },

  an_acknowledgement_whose_lock_is_gone_fails_alone_and_wakes_no_turn: async ({ newProvider }) => {
    const provider = turnClaiming(await newProvider());
    const lost = await runningActivity(provider, 'inst-1');
    const live = await runningActivity(provider, 'inst-2');
    const handed: string[] = [];

    const outcomes = await provider.ackWorkItemsRunningTurns(
      [
        { lockToken: `${lost}-gone`, completion: completion('inst-1') },
        { lockToken: live, completion: completion('inst-2') },
      ],
      CLAIM,
      async (turns, commit) => {
        handed.push(...turns.map((turn) => turn.item.instance));
        await commit(turns.map(recordingCompletion));
      },
    );

    expect(outcomes.map((outcome) => outcome.ok)).toEqual([false, true]);
    expect(handed).toEqual(['inst-2']);
  },

  refuses_a_claim_of_no_turns: async ({ newProvider }) => {
    const provider = turnClaiming(await newProvider());
    const lockToken = await runningActivity(provider, 'inst-1');
    await expect(
      provider.ackWorkItemsRunningTurns(
        [{ lockToken, completion: completion('inst-1') }],
        { ...CLAIM, maxItems: 0 },
        () => Promise.resolve(),
      ),
    ).rejects.toThrow(/maxItems/);
  },
});

/**
 * Registers the {@link turnClaims} validations in vitest, for a provider with
 * `ackWorkItemsRunningTurns`.
 */
export function describeTurnClaimValidations(factory: ProviderFactory): void {
  describeValidationGroup('turn claims', turnClaims, factory);
}
