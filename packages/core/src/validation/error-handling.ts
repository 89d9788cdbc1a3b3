import { expect } from 'vitest';
import {
  INITIAL_EXECUTION_ID,
  createInstance,
  eventWithId,
  expectPresent,
  expectProviderError,
  fetchOrchestration,
  sleep,
  startItem,
  testOrchStarted,
} from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/error_handling.rs`.

/** Bad tokens, duplicate events, expired locks and undecodable history are reported, not hidden. */
export const errorHandling = defineValidationGroup('error_handling', {
  invalid_lock_token_on_ack: async ({ newProvider }) => {
    const provider = await newProvider();
    const error = await expectProviderError(
      provider.ackOrchestrationItem('invalid-token', 1, [], [], [], {}, []),
      'ack with a token nobody issued',
    );
    expect(error.detail).toMatch(/Invalid lock token|lock_token/);
  },

  duplicate_event_id_rejection: async ({ newProvider }) => {
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

    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const second = expectPresent(await fetchOrchestration(provider), 'fetch');
    const duplicate = provider.ackOrchestrationItem(
      second.lockToken,
      1,
      [
        eventWithId(1, 'instance-A', 1, null, {
          type: 'ActivityScheduled',
          name: 'Activity',
          input: '{}',
        }),
      ],
      [],
      [],
      {},
      [],
    );
    await expect(duplicate).rejects.toThrow();

    const history = await provider.read('instance-A');
    expect(history).toHaveLength(1);
    expect(history[0]?.kind.type).toBe('OrchestrationStarted');
  },

  missing_instance_metadata: async ({ newProvider }) => {
    const provider = await newProvider();
    expect(await provider.read('non-existent-instance')).toHaveLength(0);
  },

  corrupted_serialization_data: async ({ newProvider }) => {
    const provider = await newProvider();
    // duroxide only asks that the fetch neither panics nor fails; on an empty store it must
    // also find nothing.
    expect(await fetchOrchestration(provider)).toBeNull();
  },

  lock_expiration_during_ack: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const { lockToken } = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');
    await sleep(lockTimeoutMs + 100);
    const expired = provider.ackOrchestrationItem(
      lockToken,
      1,
      [eventWithId(1, 'instance-A', 1, null, testOrchStarted())],
      [],
      [],
      {},
      [],
    );
    await expect(expired, 'an ack after the lock expired must fail').rejects.toThrow();
  },

  read_corrupted_history_returns_error: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await createInstance(provider, 'inst-read-corrupt');
    expect(
      await provider.read('inst-read-corrupt'),
      'History should contain events before corruption',
    ).not.toHaveLength(0);

    await factory.corruptInstanceHistory(provider, 'inst-read-corrupt');
    await expect(
      provider.read('inst-read-corrupt'),
      'read() should return error for corrupted history',
    ).rejects.toThrow();
  },

  read_with_execution_corrupted_history_returns_error: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await createInstance(provider, 'inst-rwe-corrupt');
    expect(
      await provider.readWithExecution('inst-rwe-corrupt', INITIAL_EXECUTION_ID),
      'History should contain events before corruption',
    ).not.toHaveLength(0);

    await factory.corruptInstanceHistory(provider, 'inst-rwe-corrupt');
    await expect(
      provider.readWithExecution('inst-rwe-corrupt', INITIAL_EXECUTION_ID),
      'read_with_execution() should return error for corrupted history',
    ).rejects.toThrow();
  },
});
