import { expect } from 'vitest';
import type { EventKind } from '../model/event.js';
import { eventWithId, expectPresent, fetchOrchestration, startItem } from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/instance_creation.rs`.

function started(name: string, version: string, parentInstance: string | null = null): EventKind {
  return {
    type: 'OrchestrationStarted',
    name,
    version,
    input: '{}',
    parentInstance,
    parentId: parentInstance === null ? null : 1,
  };
}

/** Instances are created by the first ack's metadata, never by enqueueing. */
export const instanceCreation = defineValidationGroup('instance_creation', {
  instance_creation_via_metadata: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const first = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(first.item.instance).toBe('instance-A');
    expect(first.item.orchestrationName).toBe('TestOrch');
    expect(first.item.executionId).toBe(1);
    expect(first.item.history).toHaveLength(0);

    await provider.ackOrchestrationItem(
      first.lockToken,
      1,
      [eventWithId(1, 'instance-A', 1, null, started('TestOrch', '2.0.0'))],
      [],
      [],
      { orchestrationName: 'TestOrch', orchestrationVersion: '2.0.0' },
      [],
    );

    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const second = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(second.item.instance).toBe('instance-A');
    expect(second.item.orchestrationName).toBe('TestOrch');
    expect(second.item.version, 'Version from metadata, not work item').toBe('2.0.0');
    expect(second.item.executionId).toBe(1);
    expect(second.item.history, 'Has OrchestrationStarted event').toHaveLength(1);

    await provider.ackOrchestrationItem(second.lockToken, 1, [], [], [], {}, []);
  },

  no_instance_creation_on_enqueue: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('instance-B'), null);
    const fetched = expectPresent(
      await fetchOrchestration(provider),
      "Should be able to fetch work item even if instance doesn't exist",
    );
    expect(fetched.item.instance).toBe('instance-B');

    await provider.ackOrchestrationItem(
      fetched.lockToken,
      1,
      [eventWithId(1, 'instance-B', 1, null, started('TestOrch', '1.0.0'))],
      [],
      [],
      { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0' },
      [],
    );
  },

  null_version_handling: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator({ ...startItem('instance-C'), version: null }, null);
    const first = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(first.item.instance).toBe('instance-C');

    await provider.ackOrchestrationItem(
      first.lockToken,
      1,
      [eventWithId(1, 'instance-C', 1, null, started('TestOrch', '3.0.0'))],
      [],
      [],
      { orchestrationName: 'TestOrch', orchestrationVersion: '3.0.0' },
      [],
    );

    await provider.enqueueForOrchestrator(startItem('instance-C'), null);
    const second = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(second.item.version, 'Version from metadata').toBe('3.0.0');

    await provider.ackOrchestrationItem(second.lockToken, 1, [], [], [], {}, []);
  },

  sub_orchestration_instance_creation: async ({ newProvider }) => {
    const provider = await newProvider();
    const child = 'parent-instance::child-instance';
    await provider.enqueueForOrchestrator(startItem('parent-instance'), null);
    const parent = expectPresent(await fetchOrchestration(provider), 'fetch');
    await provider.ackOrchestrationItem(
      parent.lockToken,
      1,
      [eventWithId(1, 'parent-instance', 1, null, started('ParentOrch', '1.0.0'))],
      [],
      [
        {
          type: 'StartOrchestration',
          instance: child,
          orchestration: 'ChildOrch',
          input: '{}',
          version: null,
          parentInstance: 'parent-instance',
          parentId: 1,
          executionId: 1,
        },
      ],
      { orchestrationName: 'ParentOrch', orchestrationVersion: '1.0.0' },
      [],
    );

    const first = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(first.item.instance).toBe(child);
    expect(first.item.orchestrationName).toBe('ChildOrch');
    await provider.ackOrchestrationItem(
      first.lockToken,
      1,
      [eventWithId(1, child, 1, null, started('ChildOrch', '1.5.0', 'parent-instance'))],
      [],
      [],
      { orchestrationName: 'ChildOrch', orchestrationVersion: '1.5.0' },
      [],
    );

    await provider.enqueueForOrchestrator(
      {
        type: 'StartOrchestration',
        instance: child,
        orchestration: 'ChildOrch',
        input: '{}',
        version: null,
        parentInstance: null,
        parentId: null,
        executionId: 1,
      },
      null,
    );
    const second = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(second.item.instance).toBe(child);
    expect(second.item.version, 'Version from metadata').toBe('1.5.0');

    await provider.ackOrchestrationItem(second.lockToken, 1, [], [], [], {}, []);
  },
});
