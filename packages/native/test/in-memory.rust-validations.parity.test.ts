import { InMemoryProvider, type Provider } from '@duro/core';
import { describeRustProviderValidations } from './rust-provider-validations.js';

function asInMemory(provider: Provider): InMemoryProvider {
  if (!(provider instanceof InMemoryProvider)) {
    throw new TypeError(`expected an InMemoryProvider, got ${provider.name}`);
  }
  return provider;
}

describeRustProviderValidations({
  name: 'InMemoryProvider',
  createProvider: async () => new InMemoryProvider(),
  destroyProvider: async () => undefined,
  // The same lock timeout as the TypeScript suite's in-memory run: the smallest the
  // validations allow, so lock-expiry waits stay short.
  lockTimeoutMs: 1_000,
  shortPollThresholdMs: 100,
  capabilities: {
    longPolling: true,
    batchedWorkerQueue: true,
    batchedOrchestrationQueue: true,
    activityClaims: true,
  },
  corruptInstanceHistory: async (provider, instance) => {
    asInMemory(provider).corruptInstanceHistory(instance);
  },
  getMaxAttemptCount: async (provider, instance) =>
    asInMemory(provider).maxOrchestratorAttemptCount(instance),
});
