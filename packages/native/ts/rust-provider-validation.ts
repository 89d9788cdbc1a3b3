import type { Provider } from '@duro/core';
import type { ProviderFactory } from '@duro/core/validation';
import { runProviderValidation, type WireProviderFactory } from '../index.js';
import { toWireProvider } from './wire-provider.js';

/**
 * Runs one of duroxide's own provider validations against providers made by a duro
 * `ProviderFactory` (from `@duro/core/validation`), then destroys every provider it made,
 * whether the validation passed or not. `id` is one of `listProviderValidations()`.
 *
 * duroxide's hooks that name no provider (`corrupt_instance_history`,
 * `get_max_attempt_count`) act on the provider the validation created last.
 *
 * @throws {Error} with duroxide's assertion message when the validation fails; otherwise the
 *   first error of a `destroyProvider`.
 */
export async function runRustProviderValidation(
  id: string,
  factory: ProviderFactory,
): Promise<void> {
  const created: Provider[] = [];
  const latest = (hook: string): Provider => {
    const provider = created.at(-1);
    if (provider === undefined) {
      throw new Error(`${id} called ${hook} before creating a provider`);
    }
    return provider;
  };
  const wire: WireProviderFactory = {
    createProvider: async () => {
      const provider = await factory.createProvider();
      created.push(provider);
      return toWireProvider(provider);
    },
    lockTimeoutMs: factory.lockTimeoutMs,
    shortPollThresholdMs: factory.shortPollThresholdMs,
    corruptInstanceHistory: async (instance) => {
      await factory.corruptInstanceHistory(latest('corrupt_instance_history'), instance);
      return undefined;
    },
    getMaxAttemptCount: (instance) =>
      factory.getMaxAttemptCount(latest('get_max_attempt_count'), instance),
  };
  let failure: { error: unknown } | undefined;
  try {
    await runProviderValidation(id, wire);
  } catch (error) {
    failure = { error };
  }
  const cleanupErrors: unknown[] = [];
  for (const provider of created) {
    try {
      await factory.destroyProvider(provider);
    } catch (error) {
      cleanupErrors.push(error);
    }
  }
  if (failure !== undefined) throw failure.error;
  if (cleanupErrors.length > 0) throw cleanupErrors[0];
}
