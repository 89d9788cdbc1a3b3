/**
 * `target`, with the methods of `overrides` in place of its own. Every other property is passed
 * through, and every other method is bound to `target` itself: a provider keeps its state in
 * private fields, which a proxy standing in for `this` cannot reach.
 */
export function withOverrides<Target extends object>(
  target: Target,
  overrides: Partial<Target>,
): Target {
  return new Proxy(target, {
    get(inner, property) {
      const value: unknown = Reflect.get(inner, property, inner);
      if (typeof value !== 'function') return value;
      const override = (overrides as Record<PropertyKey, unknown>)[property];
      return override ?? (value as (...a: unknown[]) => unknown).bind(inner);
    },
  });
}
