import type { Provider } from '../provider/provider.js';
import { ProviderError } from '../provider/provider-error.js';
import type { RuntimeMetrics } from './runtime-metrics.js';

/** duroxide's `error_type` label of a provider error (`InstrumentedProvider::record_error`). */
function errorType(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes('deadlock')) return 'deadlock';
  if (message.includes('timeout')) return 'timeout';
  if (message.includes('connection')) return 'connection';
  return 'other';
}

/**
 * `provider` as the runtime calls it: every method that rejects counts one `providerErrors`
 * (labelled with the operation and duroxide's error type), as duroxide's `InstrumentedProvider`
 * counts them. Calls go to `provider` itself, bound to it, with their arguments unchanged.
 * @internal
 */
export function countingProviderErrors(provider: Provider, metrics: RuntimeMetrics): Provider {
  // One wrapper per method function (not per name), so a provider whose methods change is
  // always called through its current ones.
  const wrappers = new WeakMap<object, unknown>();
  const count = (method: string, error: unknown): never => {
    const operation = ProviderError.isInstance(error) ? error.operation : method;
    metrics.increment('providerErrors', { operation, error_type: errorType(error) });
    throw error;
  };
  return new Proxy(provider, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let wrapper = wrappers.get(value);
      if (wrapper === undefined) {
        wrapper = (...args: unknown[]): unknown => {
          const result: unknown = Reflect.apply(value, target, args);
          return result instanceof Promise
            ? result.catch((error: unknown) => count(property, error))
            : result;
        };
        wrappers.set(value, wrapper);
      }
      return wrapper;
    },
  });
}
