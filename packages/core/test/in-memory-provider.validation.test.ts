import { InMemoryProvider, type Provider } from '../src/index.js';
import { describeProviderValidations, type ProviderFactory } from '../src/validation/index.js';

function asInMemory(provider: Provider): InMemoryProvider {
  if (!(provider instanceof InMemoryProvider)) {
    throw new TypeError(`expected an InMemoryProvider, got ${provider.name}`);
  }
  return provider;
}

const factory: ProviderFactory = {
  name: 'InMemoryProvider',
  createProvider: async () => new InMemoryProvider(),
  destroyProvider: async () => undefined,
  // The smallest timeout the suite allows: some validations fetch with a fixed 1 s lock and
  // expect it to have lapsed after this one.
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
};

describeProviderValidations(factory);
