import { expect } from 'vitest';
import {
  activityCompleted,
  activityExecute,
  createInstance,
  eventWithId,
  expectPresent,
  expectProviderError,
  fetchActivity,
  startItem,
} from '../support/fixtures.js';
import { deletionHierarchy as hierarchy } from './hierarchy.js';
import { startedEvent } from '../support/history-events.js';
import { createCompletedInstance, createFailedInstance } from '../support/instance-builders.js';
import {
  TEST_ORCH_METADATA,
  ackWithWrites,
  fetchNextTurn,
  pokeItem,
  runPokedTurn,
  type TurnWrites,
} from '../support/test-turns.js';
import {
  adminOf,
  expectInstanceExists,
  expectInstanceGone,
} from '../support/provider-expectations.js';
import { defineValidationGroup } from '../validation-group.js';

/** The commit of the turn that creates a `TestOrch` instance: execution 1 started. */
function startTurn(instance: string): TurnWrites {
  return { historyDelta: [startedEvent(instance, 1)], metadata: TEST_ORCH_METADATA };
}

/**
 * duroxide's `provider_validation::deletion`: deleting terminal, running and unknown instances,
 * whole trees, the hierarchy primitives underneath, and the lock and queue cleanup that keeps a
 * deleted instance from coming back through an in-flight ack.
 */
export const deletion = defineValidationGroup('deletion', {
  delete_terminal_instances: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createCompletedInstance(provider, 'delete-term-completed');
    await createFailedInstance(provider, 'delete-term-failed', 'error: something went wrong');
    // A cancelled instance is a failed one whose error says so.
    await createFailedInstance(
      provider,
      'delete-term-cancelled',
      'cancelled: user requested cancellation',
    );
    for (const kind of ['completed', 'failed', 'cancelled']) {
      await expectInstanceExists(admin, `delete-term-${kind}`);
    }

    const completed = await admin.deleteInstance('delete-term-completed', false);
    expect(
      completed.instancesDeleted,
      'Completed instance should be deleted',
    ).toBeGreaterThanOrEqual(1);
    expect(
      completed.executionsDeleted,
      'Should delete at least 1 execution',
    ).toBeGreaterThanOrEqual(1);
    expect(completed.eventsDeleted, 'Should delete at least 1 event').toBeGreaterThanOrEqual(1);
    await expectInstanceGone(admin, 'delete-term-completed');

    for (const kind of ['Failed', 'Cancelled']) {
      const instance = `delete-term-${kind.toLowerCase()}`;
      const result = await admin.deleteInstance(instance, false);
      expect(result.instancesDeleted, `${kind} instance should be deleted`).toBeGreaterThanOrEqual(
        1,
      );
      await expectInstanceGone(admin, instance, `${kind} instance should not exist after deletion`);
    }
  },

  delete_running_rejected_force_succeeds: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const instance = 'delete-running-force';
    await createInstance(provider, instance);

    const error = await expectProviderError(
      admin.deleteInstance(instance, false),
      'Should reject deletion of running instance',
    );
    expect(error.retryable, 'Error should be permanent').toBe(false);
    expect(error.message.toLowerCase(), "Error message should mention 'running'").toContain(
      'running',
    );
    await expectInstanceExists(
      admin,
      instance,
      'Instance should still exist after rejected deletion',
    );

    const forced = await admin.deleteInstance(instance, true);
    expect(forced.instancesDeleted, 'Force delete should succeed').toBeGreaterThanOrEqual(1);
    await expectInstanceGone(admin, instance, 'Instance should not exist after force deletion');
  },

  delete_nonexistent_instance: async ({ newProvider }) => {
    const admin = adminOf(await newProvider());
    const error = await expectProviderError(
      admin.deleteInstance('does-not-exist-12345', false),
      'Should return error for non-existent instance',
    );
    expect(error.retryable, 'Error should be permanent').toBe(false);
    expect(error.message.toLowerCase(), "Error should mention 'not found'").toContain('not found');
  },

  delete_cleans_queues_and_locks: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const instance = 'delete-queues-locks';
    await provider.enqueueForOrchestrator(startItem(instance), null);
    await provider.enqueueForWorker(activityExecute(instance, 1, 1, 'TestActivity', '{}'));
    const first = await fetchNextTurn(provider);
    await ackWithWrites(provider, first.lockToken, {
      historyDelta: [startedEvent(instance, 1)],
      metadata: { ...TEST_ORCH_METADATA, status: 'Completed' },
    });

    const deleted = await admin.deleteInstance(instance, false);
    expect(
      deleted.queueMessagesDeleted,
      'Should have deleted queue messages',
    ).toBeGreaterThanOrEqual(1);

    // A different name and input prove the id now starts a new instance, not the deleted one.
    const reused = { name: 'ReusedOrch', version: '2.0.0', input: '{"reused": true}' };
    await provider.enqueueForOrchestrator(
      {
        ...startItem(instance),
        orchestration: reused.name,
        version: reused.version,
        input: reused.input,
      },
      null,
    );
    const second = await fetchNextTurn(provider);
    expect(second.item.orchestrationName, 'Fetched item should have new orchestration name').toBe(
      reused.name,
    );
    await expect(
      ackWithWrites(provider, second.lockToken, {
        historyDelta: [startedEvent(instance, 1, reused)],
        metadata: { orchestrationName: reused.name, orchestrationVersion: reused.version },
      }),
      'Should be able to recreate instance after deletion (locks cleared)',
    ).resolves.toBeUndefined();
    expect(
      (await admin.getInstanceInfo(instance)).orchestrationName,
      'Recreated instance should have new orchestration name, not stale data',
    ).toBe(reused.name);

    await admin.deleteInstance(instance, true);
  },

  cascade_delete_hierarchy: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    // cascade-root → cascade-child1 → cascade-grandchild, and cascade-root → cascade-child2.
    const tree: Array<[instance: string, parent: string | null]> = [
      ['cascade-root', null],
      ['cascade-child1', 'cascade-root'],
      ['cascade-child2', 'cascade-root'],
      ['cascade-grandchild', 'cascade-child1'],
    ];
    for (const [instance, parent] of tree)
      await createCompletedInstance(provider, instance, parent);
    for (const [instance] of tree) await expectInstanceExists(admin, instance);

    const error = await expectProviderError(
      admin.deleteInstance('cascade-child1', false),
      'Should not allow direct deletion of sub-orchestration',
    );
    expect(
      /sub-orchestration|root|parent/.test(error.message.toLowerCase()),
      `Error should mention sub-orchestration, root, or parent: ${error.message}`,
    ).toBe(true);
    await expectProviderError(
      admin.deleteInstance('cascade-child1', true),
      'Should not allow force deletion of sub-orchestration',
    );
    await expectProviderError(
      admin.deleteInstance('cascade-grandchild', false),
      'Should not allow direct deletion of deeply nested sub-orchestration',
    );

    const result = await admin.deleteInstance('cascade-root', false);
    expect(result.instancesDeleted, 'Root should be deleted').toBeGreaterThanOrEqual(1);
    expect(
      result.executionsDeleted,
      'Should delete executions from all 4 instances',
    ).toBeGreaterThanOrEqual(4);
    for (const [instance] of tree) await expectInstanceGone(admin, instance);
  },

  force_delete_prevents_ack_recreation: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const instance = 'zombie-prevention';
    await runPokedTurn(provider, startItem(instance), startTurn(instance));

    await provider.enqueueForOrchestrator(pokeItem(instance, 'test-event'), null);
    const inFlight = await fetchNextTurn(provider);
    const deleted = await admin.deleteInstance(instance, true);
    expect(deleted.instancesDeleted, 'Force delete should succeed').toBeGreaterThanOrEqual(1);

    await expectProviderError(
      ackWithWrites(provider, inFlight.lockToken, {
        historyDelta: [
          eventWithId(2, instance, 1, null, {
            type: 'ExternalEvent',
            name: 'test-event',
            data: '{}',
          }),
        ],
      }),
      'CRITICAL: Ack must fail after force delete to prevent zombie recreation',
    );
    await expectInstanceGone(
      admin,
      instance,
      'CRITICAL: Instance must NOT be recreated after force delete',
    );
  },

  list_children: hierarchy.list_children,
  delete_get_parent_id: hierarchy.delete_get_parent_id,
  delete_get_instance_tree: hierarchy.delete_get_instance_tree,
  delete_instances_atomic: hierarchy.delete_instances_atomic,
  delete_instances_atomic_force: hierarchy.delete_instances_atomic_force,
  delete_instances_atomic_orphan_detection: hierarchy.delete_instances_atomic_orphan_detection,

  stale_activity_after_delete_recreate: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const instance = 'stale-activity-recreate';

    await runPokedTurn(provider, startItem(instance), {
      ...startTurn(instance),
      historyDelta: [
        startedEvent(instance, 1),
        eventWithId(2, instance, 1, null, {
          type: 'ActivityScheduled',
          name: 'OldActivity',
          input: 'old-input',
        }),
      ],
      workerItems: [activityExecute(instance, 1, 2, 'OldActivity', 'old-input')],
    });
    const { lockToken: oldWorkerLock } = expectPresent(
      await fetchActivity(provider),
      'the scheduled activity should be fetchable',
    );

    const deleted = await admin.deleteInstance(instance, true);
    expect(deleted.instancesDeleted, 'Force delete should succeed').toBeGreaterThanOrEqual(1);
    await expectInstanceGone(admin, instance, 'Instance should be deleted');

    await runPokedTurn(provider, startItem(instance), startTurn(instance));
    expect((await admin.getInstanceInfo(instance)).orchestrationName).toBe('TestOrch');

    // The force delete removed the activity's row, so its old lock must be worthless now.
    await expectProviderError(
      provider.ackWorkItem(
        oldWorkerLock,
        activityCompleted(instance, 1, 2, 'stale-result-from-old-instance'),
      ),
      'CRITICAL: Stale activity ack must fail to prevent corruption of recreated instance',
    );

    await provider.enqueueForOrchestrator(pokeItem(instance, 'probe-event'), null);
    const { item } = await fetchNextTurn(provider);
    const staleCompletions = item.messages.filter(
      (message) => message.type === 'ActivityCompleted' && message.result.includes('stale-result'),
    );
    expect(
      staleCompletions,
      'CRITICAL: New instance must NOT see stale completion from deleted instance',
    ).toEqual([]);
  },
});
