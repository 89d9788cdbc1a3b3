import { expect } from 'vitest';
import type { WorkItem } from '../model/work-item.js';
import type { FetchedOrchestrationItem } from '../provider/orchestration-item.js';
import { ProviderError } from '../provider/provider-error.js';
import {
  activityCompleted,
  createInstance,
  expectPresent,
  fetchOrchestration,
  sleep,
  startItem,
} from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/instance_locking.rs`. Rust's spawned tasks
// are concurrent promises here.

function completedIds(messages: readonly WorkItem[]): number[] {
  return messages.flatMap((message) => (message.type === 'ActivityCompleted' ? [message.id] : []));
}

/** One instance is processed by one dispatcher at a time, and a lock covers only its batch. */
export const instanceLocking = defineValidationGroup('instance_locking', {
  exclusive_instance_lock: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const first = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');
    expect(await fetchOrchestration(provider, lockTimeoutMs)).toBeNull();

    await sleep(lockTimeoutMs + 100);
    const second = expectPresent(
      await fetchOrchestration(provider, lockTimeoutMs),
      'fetch after expiry',
    );
    expect(second.lockToken).not.toBe(first.lockToken);
  },

  lock_token_uniqueness: async ({ newProvider }) => {
    const provider = await newProvider();
    for (let i = 0; i < 5; i += 1) {
      await provider.enqueueForOrchestrator(startItem(`inst-${i}`), null);
    }
    const tokens: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      tokens.push(expectPresent(await fetchOrchestration(provider, 30_000), 'fetch').lockToken);
    }
    expect(new Set(tokens).size, 'All lock tokens should be unique').toBe(5);
  },

  invalid_lock_token_rejection: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    expectPresent(await fetchOrchestration(provider, 30_000), 'fetch');

    await expect(
      provider.ackOrchestrationItem('invalid-token', 1, [], [], [], {}, []),
      'Should reject invalid lock token',
    ).rejects.toThrow();
    await expect(
      provider.abandonOrchestrationItem('invalid-token', null, false),
      'Should reject invalid lock token for abandon',
    ).rejects.toThrow();
    expect(await fetchOrchestration(provider, 30_000)).toBeNull();
  },

  concurrent_instance_fetching: async ({ newProvider }) => {
    const provider = await newProvider();
    for (let i = 0; i < 10; i += 1) {
      await provider.enqueueForOrchestrator(startItem(`inst-${i}`), null);
    }
    const results = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        await sleep(i * 30);
        return fetchOrchestration(provider, 30_000);
      }),
    );
    const instances = new Set(results.flatMap((result) => (result ? [result.item.instance] : [])));
    expect(instances.size, 'Each instance should be fetched exactly once').toBe(10);
  },

  completions_arriving_during_lock_blocked: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    const first = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'fetch');
    expect(first.item.instance).toBe('instance-A');

    for (let i = 1; i <= 3; i += 1) {
      await provider.enqueueForOrchestrator(
        activityCompleted('instance-A', 1, i, `result-${i}`),
        null,
      );
    }
    expect(
      await fetchOrchestration(provider, lockTimeoutMs),
      'Instance still locked, no fetch possible',
    ).toBeNull();

    await sleep(lockTimeoutMs + 100);
    const { item } = expectPresent(
      await fetchOrchestration(provider, lockTimeoutMs),
      'fetch after expiry',
    );
    expect(item.instance).toBe('instance-A');
    expect(item.messages, 'Should have StartOrchestration + 3 completions').toHaveLength(4);
    expect(completedIds(item.messages)).toEqual([1, 2, 3]);
  },

  cross_instance_lock_isolation: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'instance-A');
    await createInstance(provider, 'instance-B');
    await provider.enqueueForOrchestrator(startItem('instance-A'), null);
    await provider.enqueueForOrchestrator(startItem('instance-B'), null);

    const a = expectPresent(await fetchOrchestration(provider, 30_000), 'fetch A');
    expect(a.item.instance).toBe('instance-A');
    const b = expectPresent(await fetchOrchestration(provider, 30_000), 'fetch B');
    expect(b.item.instance).toBe('instance-B');

    await provider.ackOrchestrationItem(
      b.lockToken,
      1,
      [],
      [],
      [],
      { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0' },
      [],
    );
    await provider.enqueueForOrchestrator(activityCompleted('instance-B', 1, 1, 'done'), null);
    const b2 = expectPresent(await fetchOrchestration(provider, 30_000), 'fetch B again');
    expect(b2.item.instance).toBe('instance-B');
    expect(a.item.instance).not.toBe(b.item.instance);
  },

  message_tagging_during_lock: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'instance-A');
    await provider.enqueueForOrchestrator(activityCompleted('instance-A', 1, 1, 'msg1'), null);
    await provider.enqueueForOrchestrator(activityCompleted('instance-A', 1, 2, 'msg2'), null);

    const first = expectPresent(await fetchOrchestration(provider, 30_000), 'fetch');
    expect(first.item.instance).toBe('instance-A');
    expect(first.item.messages).toHaveLength(2);

    await provider.enqueueForOrchestrator(activityCompleted('instance-A', 1, 3, 'msg3'), null);
    await provider.ackOrchestrationItem(first.lockToken, 1, [], [], [], {}, []);

    const { item } = expectPresent(await fetchOrchestration(provider, 30_000), 'fetch msg3');
    expect(item.instance).toBe('instance-A');
    expect(item.messages).toHaveLength(1);
    expect(completedIds(item.messages)).toEqual([3]);
  },

  ack_only_affects_locked_messages: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'instance-A');
    await provider.enqueueForOrchestrator(activityCompleted('instance-A', 1, 1, 'msg1'), null);
    const first = expectPresent(await fetchOrchestration(provider, 30_000), 'fetch');
    expect(first.item.messages).toHaveLength(1);

    await provider.enqueueForOrchestrator(activityCompleted('instance-A', 1, 2, 'msg2'), null);
    await provider.enqueueForOrchestrator(activityCompleted('instance-A', 1, 3, 'msg3'), null);
    expect(await fetchOrchestration(provider, 30_000)).toBeNull();

    await provider.ackOrchestrationItem(first.lockToken, 1, [], [], [], {}, []);
    const { item } = expectPresent(await fetchOrchestration(provider, 30_000), 'fetch');
    expect(item.instance).toBe('instance-A');
    expect(item.messages, 'Should have messages 2 and 3').toHaveLength(2);
    expect(completedIds(item.messages), 'Should only have messages 2 and 3').toEqual([2, 3]);
  },

  multi_threaded_lock_contention: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForOrchestrator(startItem('contention-instance'), null);
    const results = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        await sleep(i * 5);
        return fetchOrchestration(provider, 30_000);
      }),
    );
    const winners = results.filter((result): result is FetchedOrchestrationItem => result !== null);
    expect(
      winners,
      'Only one thread should successfully acquire lock for the same instance',
    ).toHaveLength(1);
    expect(winners[0]?.item.instance).toBe('contention-instance');
    expect(await fetchOrchestration(provider, 30_000)).toBeNull();
  },

  multi_threaded_no_duplicate_processing: async ({ newProvider }) => {
    const provider = await newProvider();
    const instanceCount = 20;
    for (let i = 0; i < instanceCount; i += 1) {
      await provider.enqueueForOrchestrator(startItem(`dup-test-${i}`), null);
    }
    const fetchRetryingTransientErrors = async (i: number): Promise<string | null> => {
      await sleep((i * 3) % 50);
      for (let attempt = 0; ; attempt += 1) {
        try {
          return (await fetchOrchestration(provider, 30_000))?.item.instance ?? null;
        } catch (error) {
          if (!ProviderError.isInstance(error) || !error.retryable || attempt >= 2) throw error;
          await sleep(10 * (attempt + 1));
        }
      }
    };
    const settled = await Promise.allSettled(
      Array.from({ length: instanceCount * 2 }, (_, i) => fetchRetryingTransientErrors(i)),
    );
    // As in duroxide, a fetch that still fails after its retries counts as fetching nothing.
    const fetched = settled.flatMap((result) =>
      result.status === 'fulfilled' && result.value !== null ? [result.value] : [],
    );
    expect(new Set(fetched).size, 'No duplicate instances should be fetched').toBe(fetched.length);
    expect(fetched.length, 'Cannot fetch more instances than exist').toBeLessThanOrEqual(
      instanceCount,
    );
  },

  multi_threaded_lock_expiration_recovery: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const lockTimeoutMs = factory.lockTimeoutMs;
    await provider.enqueueForOrchestrator(startItem('expiration-instance'), null);

    // All three start together, like the Rust test's barrier.
    const holder = (async () => {
      const held = expectPresent(await fetchOrchestration(provider, lockTimeoutMs), 'holder fetch');
      expect(held.item.instance).toBe('expiration-instance');
      await sleep(lockTimeoutMs + 200);
      return held.lockToken;
    })();
    const blocked = (async () => {
      await sleep(200);
      return fetchOrchestration(provider, lockTimeoutMs);
    })();
    const recovering = (async () => {
      await sleep(lockTimeoutMs + 100);
      return fetchOrchestration(provider, lockTimeoutMs);
    })();

    const [heldToken, whileLocked, afterExpiry] = await Promise.all([holder, blocked, recovering]);
    expect(whileLocked, 'Instance should be locked').toBeNull();
    const recovered = expectPresent(afterExpiry, 'fetch after the lock expired');
    expect(recovered.item.instance).toBe('expiration-instance');
    // duroxide compares with a literal; the holder's token is what the new lock must differ from.
    expect(recovered.lockToken).not.toBe(heldToken);
  },
});
