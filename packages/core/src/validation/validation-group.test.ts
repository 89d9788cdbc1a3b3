import { describe, expect, it } from 'vitest';
import { InMemoryProvider } from '../memory/in-memory-provider.js';
import type { Provider } from '../provider/provider.js';
import { describeProviderValidations } from './index.js';
import type { ProviderFactory } from './provider-factory.js';
import { defineValidationGroup, runValidation, validationAppliesTo } from './validation-group.js';

/** A factory that records what it made and destroyed; `failDestroy` makes destroying fail. */
function recordingFactory(failDestroy = false) {
  const created: Provider[] = [];
  const destroyed: Provider[] = [];
  const factory: ProviderFactory = {
    name: 'Recording',
    createProvider: async () => {
      const provider = new InMemoryProvider();
      created.push(provider);
      return provider;
    },
    destroyProvider: async (provider) => {
      destroyed.push(provider);
      if (failDestroy) throw new Error('cannot drop the store');
    },
    lockTimeoutMs: 1_000,
    shortPollThresholdMs: 100,
    capabilities: {
      longPolling: false,
      batchedWorkerQueue: false,
      batchedOrchestrationQueue: false,
      activityClaims: false,
    },
    corruptInstanceHistory: async () => undefined,
    getMaxAttemptCount: async () => 0,
  };
  return { factory, created, destroyed };
}

describe('running a validation', () => {
  it('destroys every provider it made when the validation passes', async () => {
    const { factory, created, destroyed } = recordingFactory();
    await runValidation(factory, async ({ newProvider }) => {
      await newProvider();
      await newProvider();
    });
    expect(created).toHaveLength(2);
    expect(destroyed).toEqual(created);
  });

  it('destroys every provider it made when the validation fails, and reports that failure', async () => {
    const { factory, created, destroyed } = recordingFactory(true);
    const run = runValidation(factory, async ({ newProvider }) => {
      await newProvider();
      throw new Error('the provider is wrong');
    });
    await expect(run).rejects.toThrow('the provider is wrong');
    expect(destroyed).toEqual(created);
  });

  it('reports a failed cleanup of a passing validation', async () => {
    const { factory } = recordingFactory(true);
    const run = runValidation(factory, async ({ newProvider }) => {
      await newProvider();
    });
    await expect(run).rejects.toThrow('cannot drop the store');
  });
});

describe('declaring validations', () => {
  it('refuses names that are not Rust function names without test_', () => {
    const run = async () => undefined;
    expect(() => defineValidationGroup('Instance Locking', { a: run })).toThrow(/Rust module name/);
    expect(() => defineValidationGroup('locking', { test_exclusive: run })).toThrow(
      /locking.test_exclusive/,
    );
  });

  it('applies a conditional validation only to the factories it names', () => {
    const { factory } = recordingFactory();
    const longPollOnly = {
      run: async () => undefined,
      appliesTo: (f: ProviderFactory) => f.capabilities.longPolling,
    };
    expect(validationAppliesTo(longPollOnly, factory)).toBe(false);
    expect(
      validationAppliesTo(longPollOnly, {
        ...factory,
        capabilities: { ...factory.capabilities, longPolling: true },
      }),
    ).toBe(true);
  });

  it('refuses to skip a validation that does not exist', () => {
    const { factory } = recordingFactory();
    expect(() =>
      describeProviderValidations(factory, { skip: { 'atomicity.no_such_check': 'why' } }),
    ).toThrow(/unknown validation "atomicity.no_such_check"/);
  });
});
