import { expect } from 'vitest';
import {
  INITIAL_EVENT_ID,
  INITIAL_EXECUTION_ID,
  activityCompleted,
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

// Port of duroxide 0.1.32 `src/provider_validation/lock_expiration.rs`.

/** Locks lapse after their timeout, abandon and ack release them at once, renewal extends them. */
export const lockExpiration = defineValidationGroup('lock_expiration', {
  lock_expires_after_timeout: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const first = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');
    expect(await fetchOrchestration(provider, lockTimeoutMs)).toBeNull();

    await sleep(lockTimeoutMs + 100);
    const second = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'refetch');
    expect(second.item.instance).toBe('instance-A');
    expect(second.lockToken, 'Should have new lock token').not.toBe(first.lockToken);
    await expect(
      provider.ackOrchestrationItem(first.lockToken, 1, [], [], [], {}, []),
    ).rejects.toThrow();
  },

  abandon_releases_lock_immediately: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const { lockToken } = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');
    expect(await fetchOrchestration(provider, lockTimeoutMs)).toBeNull();

    await provider.abandonOrchestrationItem(lockToken, null, false);
    const { item } = expectPresent(
      await fetchOrchestration(provider, lockTimeoutMs),
      'fetch right after abandon',
    );
    expect(item.instance).toBe('instance-A');
  },

  lock_renewal_on_ack: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const { lockToken } = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');
    expect(await fetchOrchestration(provider, lockTimeoutMs)).toBeNull();

    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    expect(await fetchOrchestration(provider, lockTimeoutMs)).toBeNull();

    await provider.ackOrchestrationItem(
      lockToken,
      1,
      [eventWithId(1, 'instance-A', 1, null, testOrchStarted())],
      [],
      [],
      {},
      [],
    );
    const { item } = expectPresent(
      await fetchOrchestration(provider, lockTimeoutMs),
      'the new message right after ack',
    );
    expect(item.instance).toBe('instance-A');
  },

  concurrent_lock_attempts_respect_expiration: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');

    const attempts = Array.from({ length: 5 }, async (_, i) => {
      await sleep(i * 50);
      return fetchOrchestration(provider, lockTimeoutMs);
    });
    await sleep(200);
    for (const result of await Promise.all(attempts)) expect(result).toBeNull();

    await sleep(Math.max(lockTimeoutMs - 200, 0) + 100);
    const { item } = expectPresent(
      await fetchOrchestration(provider, lockTimeoutMs),
      'fetch after expiry',
    );
    expect(item.instance).toBe('instance-A');
  },

  worker_lock_renewal_success: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForWorker(activityExecute('test-instance', 1, 1, 'TestActivity', 'test'));
    const { lockToken } = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'fetch');
    expect(await fetchActivity(provider, lockTimeoutMs)).toBeNull();

    await sleep(100);
    await provider.renewWorkItemLock(lockToken, lockTimeoutMs);
    expect(await fetchActivity(provider, lockTimeoutMs)).toBeNull();
  },

  worker_lock_renewal_invalid_token: async ({ newProvider }) => {
    const provider = await newProvider();
    await expect(
      provider.renewWorkItemLock('invalid-token-123', 30_000),
      'Should fail with invalid token',
    ).rejects.toThrow();
  },

  worker_lock_renewal_after_expiration: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(activityExecute('test-instance', 1, 1, 'TestActivity', 'test'));
    const { lockToken } = expectPresent(await fetchActivity(provider, 1_000), 'fetch');

    await sleep(factory.lockTimeoutMs + 100);
    await expect(
      provider.renewWorkItemLock(lockToken, factory.lockTimeoutMs),
      'Should fail to renew expired lock',
    ).rejects.toThrow();
  },

  worker_lock_renewal_extends_timeout: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    const instance = 'test-lock-renewal-extends';
    await provider.enqueueForOrchestrator(startItem(instance), null);
    const orchestration = expectPresent(await fetchOrchestration(provider, 30_000), 'fetch');
    await provider.ackOrchestrationItem(
      orchestration.lockToken,
      INITIAL_EXECUTION_ID,
      [eventWithId(INITIAL_EVENT_ID, instance, INITIAL_EXECUTION_ID, null, testOrchStarted())],
      [activityExecute(instance, INITIAL_EXECUTION_ID, 1, 'TestActivity', 'test')],
      [],
      { orchestrationName: 'TestOrch', status: 'Running' },
      [],
    );

    const { lockToken } = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'fetch');
    const preRenewalWaitMs = lockTimeoutMs * 0.6;
    await sleep(preRenewalWaitMs);
    await provider.renewWorkItemLock(lockToken, lockTimeoutMs);
    // At 1.0x the original lock would have lapsed; the renewal moved it to about 1.6x.
    await sleep(lockTimeoutMs - preRenewalWaitMs);
    expect(
      await fetchActivity(provider, lockTimeoutMs),
      'Item should still be locked after renewal',
    ).toBeNull();
  },

  worker_lock_renewal_after_ack: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForWorker(activityExecute('test-instance', 1, 1, 'TestActivity', 'test'));
    const { lockToken } = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'fetch');
    await provider.ackWorkItem(lockToken, activityCompleted('test-instance', 1, 1, 'done'));
    await expect(
      provider.renewWorkItemLock(lockToken, lockTimeoutMs),
      'Should fail to renew after ack',
    ).rejects.toThrow();
  },

  abandon_work_item_releases_lock: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    const instance = 'test-abandon-work';
    await provider.enqueueForWorker(activityExecute(instance, 1, 1, 'TestActivity', 'test'));
    const first = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'fetch');
    expect(first.item.type).toBe('ActivityExecute');
    expect(await fetchActivity(provider, lockTimeoutMs), 'Item should be locked').toBeNull();

    await provider.abandonWorkItem(first.lockToken, null, false);
    const second = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'refetch');
    expect(second.item.type).toBe('ActivityExecute');
    expect(second.lockToken, 'Should have new lock token').not.toBe(first.lockToken);
    await provider.ackWorkItem(second.lockToken, activityCompleted(instance, 1, 1, 'done'));
  },

  abandon_work_item_with_delay: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    const instance = 'test-abandon-delay';
    await provider.enqueueForWorker(activityExecute(instance, 1, 1, 'TestActivity', 'test'));
    const first = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'fetch');

    const delayMs = 500;
    await provider.abandonWorkItem(first.lockToken, delayMs, false);
    expect(
      await fetchActivity(provider, lockTimeoutMs),
      'Item should be delayed, not immediately available',
    ).toBeNull();

    await sleep(delayMs + 100);
    const second = expectPresent(await fetchActivity(provider, lockTimeoutMs), 'after the delay');
    expect(second.item.type).toBe('ActivityExecute');
    await provider.ackWorkItem(second.lockToken, activityCompleted(instance, 1, 1, 'done'));
  },

  worker_ack_fails_after_lock_expiry: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'ack-expiry-test';
    await provider.enqueueForWorker(activityExecute(instance, 1, 1, 'TestActivity', 'test'));
    const shortTimeoutMs = 1_000;
    const { lockToken } = expectPresent(await fetchActivity(provider, shortTimeoutMs), 'fetch');

    await sleep(shortTimeoutMs + 200);
    await expect(
      provider.ackWorkItem(lockToken, activityCompleted(instance, 1, 1, 'done')),
      'Ack must fail when worker lock has expired',
    ).rejects.toThrow();
    expect(
      await fetchActivity(provider, 5_000),
      'Item should still be refetchable after expired ack was rejected',
    ).not.toBeNull();
  },

  orchestration_lock_renewal_after_expiration: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('orch-renewal-expiry'), null);
    const { lockToken } = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');

    await sleep(lockTimeoutMs + 100);
    await expect(
      provider.renewOrchestrationItemLock(lockToken, lockTimeoutMs),
      'Should fail to renew expired orchestration lock',
    ).rejects.toThrow();
  },
});
