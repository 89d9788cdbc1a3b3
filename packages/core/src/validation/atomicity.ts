import { expect } from 'vitest';
import {
  activityExecute,
  eventWithId,
  expectPresent,
  fetchActivity,
  fetchOrchestration,
  sleep,
  startItem,
  testOrchStarted,
} from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/atomicity.rs`.

/** An ack either commits every part of a turn or none of it. */
export const atomicity = defineValidationGroup('atomicity', {
  atomicity_failure_rollback: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const first = expectPresent(await fetchOrchestration(provider), 'fetch');
    await provider.ackOrchestrationItem(
      first.lockToken,
      1,
      [eventWithId(1, 'instance-A', 1, null, testOrchStarted())],
      [],
      [],
      {},
      [],
    );
    expect(await provider.read('instance-A')).toHaveLength(1);

    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const second = expectPresent(await fetchOrchestration(provider), 'fetch');
    const duplicate = provider.ackOrchestrationItem(
      second.lockToken,
      1,
      [eventWithId(1, 'instance-A', 1, null, testOrchStarted())],
      [],
      [],
      {},
      [],
    );
    await expect(duplicate, 'Should reject duplicate event_id').rejects.toThrow();

    expect(
      await provider.read('instance-A'),
      'History should remain unchanged after failed ack',
    ).toHaveLength(1);
    // The lock survives the failed ack.
    expect(await fetchOrchestration(provider)).toBeNull();
  },

  multi_operation_atomic_ack: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const { lockToken } = expectPresent(await fetchOrchestration(provider), 'fetch');
    const scheduled = (eventId: number, n: number) =>
      eventWithId(eventId, 'instance-A', 1, null, {
        type: 'ActivityScheduled',
        name: `Activity${n}`,
        input: `input${n}`,
      });
    await provider.ackOrchestrationItem(
      lockToken,
      1,
      [
        eventWithId(1, 'instance-A', 1, null, testOrchStarted()),
        scheduled(2, 1),
        scheduled(3, 2),
        scheduled(4, 3),
        eventWithId(5, 'instance-A', 1, null, { type: 'TimerCreated', fireAtMs: 1234567890 }),
      ],
      [1, 2, 3].map((n) => activityExecute('instance-A', 1, n, `Activity${n}`, `input${n}`)),
      [
        { type: 'TimerFired', instance: 'instance-A', executionId: 1, id: 1, fireAtMs: 1234567890 },
        { type: 'ExternalRaised', instance: 'instance-A', name: 'TestEvent', data: 'test-data' },
      ],
      {},
      [],
    );

    expect(
      await provider.read('instance-A'),
      'All 5 history events should be persisted',
    ).toHaveLength(5);
    for (let i = 0; i < 3; i += 1) {
      expect(await fetchActivity(provider)).not.toBeNull();
    }
    expect(await fetchActivity(provider)).toBeNull();

    const { item } = expectPresent(await fetchOrchestration(provider), 'fetch');
    expect(item.messages, 'Should have TimerFired and ExternalRaised').toHaveLength(2);
    expect(item.messages[0]?.type).toBe('TimerFired');
    expect(item.messages[1]?.type).toBe('ExternalRaised');
  },

  lock_released_only_on_successful_ack: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');
    expect(await fetchOrchestration(provider, lockTimeoutMs)).toBeNull();

    const invalid = provider.ackOrchestrationItem(
      'invalid-lock-token',
      1,
      [eventWithId(2, 'instance-A', 1, null, testOrchStarted())],
      [],
      [],
      {},
      [],
    );
    await expect(invalid).rejects.toThrow();
    expect(await fetchOrchestration(provider, lockTimeoutMs)).toBeNull();

    await sleep(lockTimeoutMs + 100);
    const { item } = expectPresent(
      await fetchOrchestration(provider, lockTimeoutMs),
      'fetch after the lock expired',
    );
    expect(item.instance).toBe('instance-A');
  },

  concurrent_ack_prevention: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const { lockToken } = expectPresent(await fetchOrchestration(provider), 'fetch');
    const ack = () =>
      provider.ackOrchestrationItem(
        lockToken,
        1,
        [eventWithId(1, 'instance-A', 1, null, testOrchStarted())],
        [],
        [],
        {},
        [],
      );
    const results = await Promise.allSettled([ack(), ack()]);
    const successes = results.filter((result) => result.status === 'fulfilled');
    const failures = results.filter((result) => result.status === 'rejected');
    expect(successes, 'Exactly one ack should succeed').toHaveLength(1);
    expect(failures, 'Exactly one ack should fail').toHaveLength(1);
  },
});
