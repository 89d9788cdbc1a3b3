/**
 * A map that keeps at most `capacity` entries, forgetting the oldest first: for what a provider
 * remembers about its own calls, which must not grow without bound when callers never come back.
 * @internal
 */
export class RecentMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** The entries, oldest first. */
  entries(): IterableIterator<[K, V]> {
    return this.#entries.entries();
  }
}
