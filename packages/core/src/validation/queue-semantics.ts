import { expect } from 'vitest';
import type { Provider } from '../provider/provider.js';
import {
  activityCompleted,
  activityExecute,
  createInstance,
  eventWithId,
  expectPresent,
  fetchActivity,
  fetchOrchestration,
  sleep,
  startItem,
  testOrchStarted,
} from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/queue_semantics.rs`.

/** Starts `instance` with an `OrchestrationStarted` acked without metadata. */
async function startWithoutMetadata(provider: Provider, instance: string): Promise<void> {
  await provider.enqueueForOrchestrator(startItem(instance), null);
  const { lockToken } = expectPresent(await fetchOrchestration(provider), 'fetch start');
  await provider.ackOrchestrationItem(
    lockToken,
    1,
    [eventWithId(1, instance, 1, null, testOrchStarted())],
    [],
    [],
    {},
    [],
  );
}

/** Queues are FIFO peek-lock queues whose messages become visible at their `visible_at`. */
export const queueSemantics = defineValidationGroup('queue_semantics', {
  worker_queue_fifo_ordering: async ({ newProvider }) => {
    const provider = await newProvider();
    for (let i = 0; i < 5; i += 1) {
      await provider.enqueueForWorker(
        activityExecute('instance-A', 1, i, `Activity${i}`, `input${i}`),
      );
    }
    for (let i = 0; i < 5; i += 1) {
      const { item } = expectPresent(await fetchActivity(provider), `fetch ${i}`);
      expect(item).toMatchObject({ type: 'ActivityExecute', id: i, name: `Activity${i}` });
    }
    expect(await fetchActivity(provider)).toBeNull();
  },

  worker_peek_lock_semantics: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(activityExecute('instance-A', 1, 1, 'Activity1', 'input1'));
    const { item, lockToken } = expectPresent(await fetchActivity(provider), 'fetch');
    expect(item.type).toBe('ActivityExecute');
    expect(await fetchActivity(provider)).toBeNull();

    await provider.ackWorkItem(lockToken, activityCompleted('instance-A', 1, 1, 'result1'));
    expect(await fetchActivity(provider)).toBeNull();
  },

  worker_ack_atomicity: async ({ newProvider }) => {
    const provider = await newProvider();
    await startWithoutMetadata(provider, 'instance-A');
    await provider.enqueueForWorker(activityExecute('instance-A', 1, 1, 'Activity1', 'input1'));
    const { lockToken } = expectPresent(await fetchActivity(provider), 'fetch activity');
    await provider.ackWorkItem(lockToken, activityCompleted('instance-A', 1, 1, 'result1'));

    expect(await fetchActivity(provider)).toBeNull();
    const { item } = expectPresent(
      await fetchOrchestration(provider),
      'the completion on the orchestrator queue',
    );
    expect(item.instance).toBe('instance-A');
    expect(item.messages).toHaveLength(1);
    expect(item.messages[0]?.type).toBe('ActivityCompleted');
  },

  timer_delayed_visibility: async ({ newProvider }) => {
    const provider = await newProvider();
    await startWithoutMetadata(provider, 'instance-A');
    await provider.enqueueForOrchestrator(
      { type: 'TimerFired', instance: 'instance-A', executionId: 1, id: 1, fireAtMs: 0 },
      5_000,
    );
    expect(await fetchOrchestration(provider)).toBeNull();

    await sleep(5_100);
    const { item } = expectPresent(await fetchOrchestration(provider), 'the timer once visible');
    expect(item.instance).toBe('instance-A');
    expect(item.messages).toHaveLength(1);
    expect(item.messages[0]?.type).toBe('TimerFired');
  },

  lost_lock_token_handling: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForWorker(activityExecute('instance-A', 1, 1, 'Activity1', 'input1'));
    // The token is dropped without an ack, as by a crashed worker.
    expectPresent(await fetchActivity(provider, lockTimeoutMs), 'fetch');
    expect(await fetchActivity(provider, lockTimeoutMs)).toBeNull();

    await sleep(lockTimeoutMs + 100);
    const { item } = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'redelivery');
    expect(item.type).toBe('ActivityExecute');
  },

  worker_item_immediate_visibility: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const instance = 'test-immediate-vis';
    await provider.enqueueForWorker(activityExecute(instance, 1, 1, 'TestActivity', 'test'));
    const { item, lockToken } = expectPresent(
      await fetchActivity(provider, factory.lockTimeoutMs),
      'Newly enqueued worker item should be immediately visible',
    );
    expect(item).toMatchObject({ type: 'ActivityExecute', name: 'TestActivity' });
    await provider.ackWorkItem(lockToken, activityCompleted(instance, 1, 1, 'done'));
  },

  worker_delayed_visibility_skips_future_items: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    const instance = 'test-delayed-vis';
    await provider.enqueueForWorker(activityExecute(instance, 1, 1, 'Activity1', 'first'));
    await provider.enqueueForWorker(activityExecute(instance, 1, 2, 'Activity2', 'second'));

    const first = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'fetch first');
    expect(first.item).toMatchObject({ type: 'ActivityExecute', id: 1 });
    const delayMs = 500;
    await provider.abandonWorkItem(first.lockToken, delayMs, false);

    const second = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'fetch second');
    expect(second.item, 'Should skip delayed item and fetch second item').toMatchObject({
      type: 'ActivityExecute',
      id: 2,
    });
    expect(await fetchActivity(provider, lockTimeoutMs), 'No items should be available').toBeNull();

    await sleep(delayMs + 100);
    const third = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'after the delay');
    expect(third.item, 'First item should now be visible after delay').toMatchObject({
      type: 'ActivityExecute',
      id: 1,
    });
    await provider.ackWorkItem(second.lockToken, activityCompleted(instance, 1, 2, 'done'));
    await provider.ackWorkItem(third.lockToken, activityCompleted(instance, 1, 1, 'done'));
  },

  orphan_queue_messages_dropped: async ({ newProvider }) => {
    const provider = await newProvider();
    const queueMessage = (instance: string, data: string) =>
      ({ type: 'QueueMessage', instance, name: 'ConfigUpdate', data }) as const;

    await provider.enqueueForOrchestrator(queueMessage('orphan-test', 'v1'), null);
    await provider.enqueueForOrchestrator(queueMessage('orphan-test', 'v2'), null);
    expect(
      await fetchOrchestration(provider, 5_000),
      'Expected None for orphan queue messages',
    ).toBeNull();
    expect(
      await fetchOrchestration(provider, 5_000),
      'Orphan messages should have been deleted, not left in queue',
    ).toBeNull();

    await createInstance(provider, 'orphan-test-existing');
    await provider.enqueueForOrchestrator(queueMessage('orphan-test-existing', 'v3'), null);
    const { item, lockToken } = expectPresent(
      await fetchOrchestration(provider, 5_000),
      'Expected orchestration item for existing instance with queued event',
    );
    expect(item.instance).toBe('orphan-test-existing');
    expect(
      item.messages,
      'QueueMessage for existing instance should be included in messages',
    ).toContainEqual(queueMessage('orphan-test-existing', 'v3'));
    await provider.ackOrchestrationItem(lockToken, item.executionId, [], [], [], {}, []);
  },
});
