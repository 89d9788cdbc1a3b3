import type { Provider } from '@duro/core';

/**
 * `provider` with some of its methods replaced by `overrides`; every other member is the
 * provider's own, its methods bound to it (so `this` stays the provider). An optional method the
 * overrides leave out stays absent when the provider lacks it, so a runtime falls back as it
 * would without the wrapper.
 */
export function providerWithOverrides(provider: Provider, overrides: Partial<Provider>): Provider {
  return new Proxy(provider, {
    get(target, property, receiver) {
      const override = overrides[property as keyof Provider];
      if (override !== undefined) return override;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
