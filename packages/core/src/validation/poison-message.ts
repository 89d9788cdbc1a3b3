import { assert, expect } from 'vitest';
import type { WorkItem } from '../model/work-item.js';
import { TagFilter } from '../provider/fetch-filters.js';
import type { FetchedOrchestrationItem, FetchedWorkItem } from '../provider/orchestration-item.js';
import type { Provider } from '../provider/provider.js';
import {
  activityCompleted,
  activityExecute,
  eventWithId,
  sleep,
  startItem,
} from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

async function fetchTurn(
  provider: Provider,
  lockTimeoutMs: number,
  message = 'item should be present',
): Promise<FetchedOrchestrationItem> {
  const fetched = await provider.fetchOrchestrationItem(lockTimeoutMs, 0, null);
  assert(fetched !== null, message);
  return fetched;
}

/** Acknowledges a turn that writes nothing: only its messages are consumed. */
function ackEmptyTurn(provider: Provider, lockToken: string): Promise<void> {
  return provider.ackOrchestrationItem(lockToken, 1, [], [], [], {}, []);
}

async function fetchActivity(
  provider: Provider,
  lockTimeoutMs: number,
  message = 'item should be present',
): Promise<FetchedWorkItem> {
  const fetched = await provider.fetchWorkItem(lockTimeoutMs, 0, null, TagFilter.defaultOnly());
  assert(fetched !== null, message);
  return fetched;
}

/** One queue's fetch, abandon and acknowledge, so the attempt-count rules read alike for both. */
interface AttemptProbe {
  fetch(): Promise<{ readonly lockToken: string; readonly attemptCount: number }>;
  abandon(lockToken: string, ignoreAttempt: boolean): Promise<void>;
  acknowledge(lockToken: string): Promise<void>;
}

function orchestratorProbe(provider: Provider, lockTimeoutMs: number): AttemptProbe {
  return {
    fetch: () => fetchTurn(provider, lockTimeoutMs),
    abandon: (lockToken, ignoreAttempt) =>
      provider.abandonOrchestrationItem(lockToken, null, ignoreAttempt),
    acknowledge: (lockToken) => ackEmptyTurn(provider, lockToken),
  };
}

/** The worker queue holding activity 1 of `instance`, acknowledged with a completion. */
function workerProbe(provider: Provider, lockTimeoutMs: number, instance: string): AttemptProbe {
  return {
    fetch: () => fetchActivity(provider, lockTimeoutMs),
    abandon: (lockToken, ignoreAttempt) => provider.abandonWorkItem(lockToken, null, ignoreAttempt),
    acknowledge: (lockToken) =>
      provider.ackWorkItem(lockToken, activityCompleted(instance, 1, 1, 'done')),
  };
}

/**
 * Fetches the probe's only message once more than there are `abandons`, abandoning it in between
 * (with `ignoreAttempt` as listed), checks each fetch's attempt count against `attemptCounts` and
 * acknowledges the last delivery. `why` explains the expected counts.
 */
async function expectAttemptCounts(
  probe: AttemptProbe,
  abandons: readonly boolean[],
  attemptCounts: readonly number[],
  why: string,
): Promise<void> {
  let lockToken = '';
  for (const [index, expected] of attemptCounts.entries()) {
    if (index > 0) await probe.abandon(lockToken, abandons[index - 1] ?? false);
    const fetched = await probe.fetch();
    expect(
      fetched.attemptCount,
      `fetch #${index + 1} should have attempt_count = ${expected} (${why})`,
    ).toBe(expected);
    lockToken = fetched.lockToken;
  }
  await probe.acknowledge(lockToken);
}

/**
 * Persists execution 1 of `instance`. Inputs other than a start are dropped for an instance that
 * does not exist, so attempt counting can only be probed on a created one.
 */
async function persistExecution(provider: Provider, instance: string, lockTimeoutMs: number) {
  await provider.enqueueForOrchestrator(startItem(instance), null);
  const seed = await fetchTurn(provider, lockTimeoutMs, 'seed visible');
  const started = eventWithId(1, instance, 1, null, {
    type: 'OrchestrationStarted',
    name: 'TestOrch',
    version: '1.0.0',
    input: '',
    parentInstance: null,
    parentId: null,
  });
  await provider.ackOrchestrationItem(
    seed.lockToken,
    1,
    [started],
    [],
    [],
    { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0' },
    [],
  );
}

function queueMessage(instance: string, data: string): WorkItem {
  return { type: 'QueueMessage', instance, name: 'q', data };
}

/** duroxide `provider_validation::poison_message`: attempt counts for poison detection. */
export const poisonMessage = defineValidationGroup('poison_message', {
  // Ignoring the attempt of a fetched input must not erase the budget of a start it did not see.
  orchestration_ignore_attempt_preserves_hidden_start: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockMs = factory.lockTimeoutMs;
    const instance = 'ignore-attempt-hidden-start';
    await persistExecution(provider, instance, lockMs);

    await provider.enqueueForOrchestrator(startItem(instance), null);
    const first = await fetchTurn(provider, lockMs, 'visible start');
    expect(first.attemptCount).toBe(1);
    await provider.abandonOrchestrationItem(first.lockToken, null, false);
    const second = await fetchTurn(provider, lockMs, 'visible start');
    expect(second.attemptCount).toBe(2);
    // Hides the start, with its two attempts, for a second.
    await provider.abandonOrchestrationItem(second.lockToken, 1_000, false);

    await provider.enqueueForOrchestrator(queueMessage(instance, 'w'), null);
    const input = await fetchTurn(provider, lockMs, 'visible input');
    expect(input.item.messages, 'start must remain hidden').toHaveLength(1);
    expect(input.item.messages[0]?.type).toBe('QueueMessage');
    expect(input.attemptCount).toBe(1);
    await provider.abandonOrchestrationItem(input.lockToken, null, true);

    await sleep(1_100);
    const together = await fetchTurn(provider, lockMs, 'both visible');
    expect(
      together.attemptCount,
      'the hidden start must retain both attempts before this fetch',
    ).toBe(3);
    await ackEmptyTurn(provider, together.lockToken);
  },

  // A delayed abandon delays only the rows its fetch locked; a row that arrived after the fetch
  // (a continue-as-new start, say) keeps its own visibility.
  orchestration_delayed_abandon_preserves_unlocked_rows: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockMs = factory.lockTimeoutMs;
    const instance = 'delayed-abandon-unlocked-rows';
    await persistExecution(provider, instance, lockMs);

    await provider.enqueueForOrchestrator(queueMessage(instance, 'locked'), null);
    const locked = await fetchTurn(provider, lockMs, 'first input visible');
    expect(locked.item.messages).toHaveLength(1);
    await provider.enqueueForOrchestrator(queueMessage(instance, 'unlocked'), null);
    await provider.abandonOrchestrationItem(locked.lockToken, 5_000, false);

    const after = await fetchTurn(
      provider,
      lockMs,
      'a row the abandoned fetch did not lock must stay visible',
    );
    expect(after.item.messages, 'only the unlocked row is visible').toHaveLength(1);
    expect(after.item.messages[0], 'the delayed row must stay hidden').toMatchObject({
      type: 'QueueMessage',
      data: 'unlocked',
    });
    await ackEmptyTurn(provider, after.lockToken);
  },

  orchestration_attempt_count_starts_at_one: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('poison-test-1'), null);

    const fetched = await fetchTurn(provider, factory.lockTimeoutMs);
    expect(fetched.attemptCount, 'First fetch should have attempt_count = 1').toBe(1);
    await ackEmptyTurn(provider, fetched.lockToken);
  },

  orchestration_attempt_count_increments_on_refetch: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('poison-test-2'), null);

    await expectAttemptCounts(
      orchestratorProbe(provider, factory.lockTimeoutMs),
      [false, false],
      [1, 2, 3],
      'each abandoned delivery counts',
    );
  },

  worker_attempt_count_starts_at_one: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(activityExecute('poison-test-3', 1, 1, 'TestActivity', '{}'));

    const fetched = await fetchActivity(provider, factory.lockTimeoutMs);
    expect(fetched.attemptCount, 'First fetch should have attempt_count = 1').toBe(1);
    await provider.ackWorkItem(fetched.lockToken, activityCompleted('poison-test-3', 1, 1, 'done'));
    expect(fetched.item.type).toBe('ActivityExecute');
  },

  worker_attempt_count_increments_on_lock_expiry: async ({ newProvider }) => {
    const provider = await newProvider();
    const shortLockMs = 1_000;
    await provider.enqueueForWorker(activityExecute('poison-test-4', 1, 1, 'TestActivity', '{}'));

    const first = await fetchActivity(provider, shortLockMs);
    expect(first.attemptCount, 'First fetch should have attempt_count = 1').toBe(1);

    await sleep(1_100);
    const second = await fetchActivity(
      provider,
      shortLockMs,
      'item should be present after lock expiry',
    );
    expect(
      second.attemptCount,
      'Second fetch after lock expiry should have attempt_count = 2',
    ).toBe(2);
    await provider.ackWorkItem(second.lockToken, activityCompleted('poison-test-4', 1, 1, 'done'));
  },

  attempt_count_is_per_message: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(activityExecute('poison-test-5a', 1, 1, 'Activity1', '{}'));
    await provider.enqueueForWorker(activityExecute('poison-test-5b', 1, 2, 'Activity2', '{}'));

    const first = await fetchActivity(provider, factory.lockTimeoutMs);
    expect(first.attemptCount, 'First item first fetch should have attempt_count = 1').toBe(1);
    const second = await fetchActivity(provider, factory.lockTimeoutMs);
    expect(second.attemptCount, 'Second item first fetch should have attempt_count = 1').toBe(1);

    assert(first.item.type === 'ActivityExecute', 'Expected ActivityExecute');
    assert(second.item.type === 'ActivityExecute', 'Expected ActivityExecute');
    expect(first.item.id, 'Should be different items').not.toBe(second.item.id);

    await provider.ackWorkItem(
      first.lockToken,
      activityCompleted(first.item.instance, 1, first.item.id, 'done'),
    );
    await provider.ackWorkItem(
      second.lockToken,
      activityCompleted(second.item.instance, 1, second.item.id, 'done'),
    );
  },

  abandon_work_item_ignore_attempt_decrements: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const instance = 'poison-test-ignore-1';
    await provider.enqueueForWorker(activityExecute(instance, 1, 1, 'TestActivity', '{}'));

    await expectAttemptCounts(
      workerProbe(provider, factory.lockTimeoutMs, instance),
      [false, true],
      [1, 2, 2],
      'ignore_attempt decremented the second attempt, the third fetch re-incremented it',
    );
  },

  abandon_orchestration_item_ignore_attempt_decrements: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('poison-test-ignore-2'), null);

    await expectAttemptCounts(
      orchestratorProbe(provider, factory.lockTimeoutMs),
      [false, true],
      [1, 2, 2],
      'ignore_attempt decremented the second attempt, the third fetch re-incremented it',
    );
  },

  ignore_attempt_never_goes_negative: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const instance = 'poison-test-never-neg';
    await provider.enqueueForWorker(activityExecute(instance, 1, 1, 'TestActivity', '{}'));

    // After the first ignored abandon the stored count is 0; the second must keep it at 0.
    await expectAttemptCounts(
      workerProbe(provider, factory.lockTimeoutMs, instance),
      [true, true],
      [1, 1, 1],
      'attempt count should not go below 0',
    );
  },

  // A batch's attempt count is the highest among its messages: a message that arrived while the
  // instance was locked must not reset the count of an older, repeatedly failing one.
  max_attempt_count_across_message_batch: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockMs = factory.lockTimeoutMs;
    const instance = 'poison-batch-test';
    await provider.enqueueForOrchestrator(startItem(instance), null);

    const first = await fetchTurn(provider, lockMs);
    expect(first.attemptCount, 'First fetch should have attempt_count = 1').toBe(1);
    expect(first.item.messages, 'Should have 1 message').toHaveLength(1);
    await provider.abandonOrchestrationItem(first.lockToken, null, false);

    const second = await fetchTurn(provider, lockMs);
    expect(second.attemptCount, 'Second fetch should have attempt_count = 2').toBe(2);
    await provider.enqueueForOrchestrator(
      activityCompleted(instance, 1, 1, 'activity result'),
      null,
    );
    await provider.abandonOrchestrationItem(second.lockToken, null, false);

    const third = await fetchTurn(provider, lockMs);
    expect(third.item.messages, 'Should have 2 messages in the batch').toHaveLength(2);
    expect(
      third.attemptCount,
      "Attempt count should be MAX across messages (3), not the newer message's count (1)",
    ).toBe(3);
    await ackEmptyTurn(provider, third.lockToken);
  },
});
