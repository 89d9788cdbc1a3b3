import { InMemoryProvider, ProviderError, type Provider, type WorkItem } from '@duro/core';
import type { ProviderFactory } from '@duro/core/validation';
import { describe, expect, it } from 'vitest';
import { loadDuroNative } from './native-addon.js';

const native = await loadDuroNative();

/** An in-memory provider whose `enqueueForOrchestrator` always fails with `error`. */
function failingEnqueue(error: Error): Provider {
  return new (class extends InMemoryProvider {
    override enqueueForOrchestrator(_item: WorkItem, _delayMs: number | null): Promise<void> {
      return Promise.reject(error);
    }
  })();
}

function factoryOf(createProvider: () => Provider): ProviderFactory {
  return {
    name: 'failing enqueue',
    createProvider: () => Promise.resolve(createProvider()),
    destroyProvider: () => Promise.resolve(),
    lockTimeoutMs: 1_000,
    shortPollThresholdMs: 100,
    capabilities: {
      longPolling: true,
      batchedWorkerQueue: true,
      batchedOrchestrationQueue: true,
      activityClaims: true,
    },
    corruptInstanceHistory: () => Promise.reject(new Error('not used')),
    getMaxAttemptCount: () => Promise.reject(new Error('not used')),
  };
}

// duroxide's validation unwraps the enqueue result, so its failure message prints the
// ProviderError exactly as the Rust side received it.
const enqueueFirst = 'instance_creation::test_instance_creation_via_metadata';

describe('errors of a duro provider seen from duroxide', () => {
  it('a ProviderError keeps its operation, message and retryable flag', async () => {
    const retryable = factoryOf(() =>
      failingEnqueue(ProviderError.retryable('enqueue_for_orchestrator', 'database is busy')),
    );
    await expect(native.runRustProviderValidation(enqueueFirst, retryable)).rejects.toThrow(
      'ProviderError { operation: "enqueue_for_orchestrator", message: "database is busy", ' +
        'retryable: true }',
    );
    const permanent = factoryOf(() =>
      failingEnqueue(ProviderError.permanent('custom_operation', 'constraint violated')),
    );
    await expect(native.runRustProviderValidation(enqueueFirst, permanent)).rejects.toThrow(
      'ProviderError { operation: "custom_operation", message: "constraint violated", ' +
        'retryable: false }',
    );
  });

  it('any other error becomes a permanent error of the called operation that names it', async () => {
    const factory = factoryOf(() => failingEnqueue(new TypeError('cannot read x of undefined')));
    await expect(native.runRustProviderValidation(enqueueFirst, factory)).rejects.toThrow(
      'ProviderError { operation: "enqueue_for_orchestrator", message: "the JavaScript provider ' +
        'threw something that is not a ProviderError: TypeError: cannot read x of undefined", ' +
        'retryable: false }',
    );
  });

  it('an unknown validation name is refused, naming it', async () => {
    const factory = factoryOf(() => new InMemoryProvider());
    await expect(
      native.runRustProviderValidation('atomicity::test_nothing', factory),
    ).rejects.toThrow('duroxide has no provider validation named atomicity::test_nothing');
  });
});
