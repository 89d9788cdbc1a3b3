import { expect } from 'vitest';
import type { Event } from '../model/event.js';
import type { WorkItemOf } from '../model/work-item.js';
import type { Provider } from '../provider/provider.js';
import {
  eventWithId,
  expectPresent,
  fetchOrchestration,
  startItem,
  testOrchStarted,
} from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/multi_execution.rs`.

function startItemWithExecution(
  instance: string,
  executionId: number,
): WorkItemOf<'StartOrchestration'> {
  return { ...startItem(instance), executionId };
}

function scheduled(instance: string, executionId: number, name: string, input: string): Event {
  return eventWithId(1, instance, executionId, null, { type: 'ActivityScheduled', name, input });
}

function activityNames(history: readonly Event[]): string[] {
  return history.flatMap(({ kind }) => (kind.type === 'ActivityScheduled' ? [kind.name] : []));
}

/** Enqueues a start for the execution, fetches it and acks `events` into that execution. */
async function runExecution(
  provider: Provider,
  instance: string,
  executionId: number,
  events: readonly Event[],
  withMetadata = false,
): Promise<void> {
  await provider.enqueueForOrchestrator(startItemWithExecution(instance, executionId), null);
  const { lockToken } = expectPresent(
    await fetchOrchestration(provider),
    `fetch for execution ${executionId}`,
  );
  await provider.ackOrchestrationItem(
    lockToken,
    executionId,
    events,
    [],
    [],
    withMetadata ? { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0' } : {},
    [],
  );
}

/** Each execution of an instance keeps its own history, and reads default to the latest. */
export const multiExecution = defineValidationGroup('multi_execution', {
  execution_isolation: async ({ newProvider }) => {
    const provider = await newProvider();
    await runExecution(provider, 'instance-A', 1, [
      eventWithId(1, 'instance-A', 1, null, testOrchStarted()),
      eventWithId(2, 'instance-A', 1, null, {
        type: 'ActivityScheduled',
        name: 'Activity1',
        input: 'input1',
      }),
      eventWithId(3, 'instance-A', 1, null, { type: 'OrchestrationCompleted', output: 'result1' }),
    ]);
    await runExecution(provider, 'instance-A', 2, [
      eventWithId(1, 'instance-A', 2, null, testOrchStarted()),
      eventWithId(2, 'instance-A', 2, null, { type: 'OrchestrationCompleted', output: 'result2' }),
    ]);

    const types = (history: readonly Event[]) => history.map(({ kind }) => kind.type);
    expect(types(await provider.readWithExecution('instance-A', 1))).toEqual([
      'OrchestrationStarted',
      'ActivityScheduled',
      'OrchestrationCompleted',
    ]);
    expect(types(await provider.readWithExecution('instance-A', 2))).toEqual([
      'OrchestrationStarted',
      'OrchestrationCompleted',
    ]);
    expect(types(await provider.read('instance-A'))).toEqual([
      'OrchestrationStarted',
      'OrchestrationCompleted',
    ]);
  },

  latest_execution_detection: async ({ newProvider }) => {
    const provider = await newProvider();
    await runExecution(provider, 'instance-A', 1, [scheduled('instance-A', 1, 'A', '')]);
    await runExecution(provider, 'instance-A', 2, [scheduled('instance-A', 2, 'B', '')]);

    expect(activityNames(await provider.read('instance-A'))).toEqual(['B']);
    expect(activityNames(await provider.readWithExecution('instance-A', 1))).toEqual(['A']);
  },

  execution_id_sequencing: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItemWithExecution('instance-A', 1), null);
    const first = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(first.item.executionId).toBe(1);
    await provider.ackOrchestrationItem(
      first.lockToken,
      1,
      [eventWithId(1, 'instance-A', 1, null, testOrchStarted())],
      [],
      [],
      { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0' },
      [],
    );

    // The fetch reports the current execution (1); the ack names execution 2 to create it.
    await runExecution(
      provider,
      'instance-A',
      2,
      [eventWithId(1, 'instance-A', 2, null, testOrchStarted())],
      true,
    );

    await provider.enqueueForOrchestrator(startItemWithExecution('instance-A', 3), null);
    const third = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(third.item.executionId, 'Current execution should be 2').toBe(2);
  },

  continue_as_new_creates_new_execution: async ({ newProvider }) => {
    const provider = await newProvider();
    await runExecution(provider, 'instance-A', 1, [
      eventWithId(1, 'instance-A', 1, null, testOrchStarted()),
    ]);
    await provider.enqueueForOrchestrator(
      {
        type: 'ContinueAsNew',
        instance: 'instance-A',
        orchestration: 'TestOrch',
        input: 'new-input',
        version: '1.0.0',
        carryForwardEvents: [],
      },
      null,
    );
    const { lockToken } = expectPresent(await fetchOrchestration(provider), 'fetch ContinueAsNew');
    await provider.ackOrchestrationItem(
      lockToken,
      2,
      [
        eventWithId(1, 'instance-A', 2, null, {
          type: 'OrchestrationStarted',
          name: 'TestOrch',
          version: '1.0.0',
          input: 'new-input',
          parentInstance: null,
          parentId: null,
        }),
      ],
      [],
      [],
      {},
      [],
    );

    const next = await fetchOrchestration(provider);
    if (next !== null) {
      expect(next.item.executionId, 'Continue-as-new should create execution 2').toBe(2);
    }
    // duroxide stops at the conditional check above; the latest history must be execution 2's.
    const latest = await provider.read('instance-A');
    expect(latest.map(({ executionId }) => executionId)).toEqual([2]);
  },

  execution_history_persistence: async ({ newProvider }) => {
    const provider = await newProvider();
    for (let executionId = 1; executionId <= 3; executionId += 1) {
      await runExecution(provider, 'instance-A', executionId, [
        scheduled('instance-A', executionId, `Activity-${executionId}`, `input-${executionId}`),
      ]);
    }
    for (let executionId = 1; executionId <= 3; executionId += 1) {
      expect(activityNames(await provider.readWithExecution('instance-A', executionId))).toEqual([
        `Activity-${executionId}`,
      ]);
    }
    expect(activityNames(await provider.read('instance-A'))).toEqual(['Activity-3']);
  },
});
