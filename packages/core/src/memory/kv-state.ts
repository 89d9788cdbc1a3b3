import type { Event } from '../model/event.js';
import type { KvEntry } from '../provider/orchestration-item.js';
import { type DeltaKvValue, type MemoryStore, entryOf } from './memory-store.js';

// duroxide 0.1.26's two-table key-value model: every turn writes the running execution's
// changes to a delta (`kv_delta`); when the execution ends they are merged into the committed
// store (`kv_store`). Fetches see only the committed store (the runtime replays the running
// execution's changes from history); clients see the delta merged over the store.

const textEncoder = new TextEncoder();

function deltaOf(store: MemoryStore, instance: string): Map<string, DeltaKvValue> {
  return entryOf(store.kvDelta, instance, () => new Map());
}

/** Records the key-value events of a turn's history delta, in order. @internal */
export function recordKvEvents(
  store: MemoryStore,
  instance: string,
  events: readonly Event[],
  nowMs: number,
): void {
  for (const { kind } of events) {
    switch (kind.type) {
      case 'KeyValueSet':
        deltaOf(store, instance).set(kind.key, {
          value: kind.value,
          lastUpdatedAtMs: kind.lastUpdatedAtMs,
        });
        break;
      case 'KeyValueCleared':
        deltaOf(store, instance).set(kind.key, { value: null, lastUpdatedAtMs: nowMs });
        break;
      case 'KeyValuesCleared': {
        const delta = deltaOf(store, instance);
        for (const key of delta.keys()) delta.set(key, { value: null, lastUpdatedAtMs: nowMs });
        for (const key of store.kvStore.get(instance)?.keys() ?? []) {
          delta.set(key, { value: null, lastUpdatedAtMs: nowMs });
        }
        break;
      }
      default:
        break;
    }
  }
}

/** Merges the running execution's delta into the committed store and clears it. @internal */
export function commitKvDelta(store: MemoryStore, instance: string): void {
  const delta = store.kvDelta.get(instance);
  if (delta === undefined) return;
  const committed = entryOf(store.kvStore, instance, () => new Map());
  for (const [key, { value, lastUpdatedAtMs }] of delta) {
    if (value === null) committed.delete(key);
    else committed.set(key, { value, lastUpdatedAtMs });
  }
  if (committed.size === 0) store.kvStore.delete(instance);
  store.kvDelta.delete(instance);
}

/** A copy of the committed key-value state, as a fetch hands it out. @internal */
export function kvSnapshot(store: MemoryStore, instance: string): Map<string, KvEntry> {
  const snapshot = new Map<string, KvEntry>();
  for (const [key, { value, lastUpdatedAtMs }] of store.kvStore.get(instance) ?? []) {
    snapshot.set(key, { value, lastUpdatedAtMs });
  }
  return snapshot;
}

/** The live key-value view of an instance: the delta wins, tombstones hide keys. @internal */
export function mergedKvValues(store: MemoryStore, instance: string): Map<string, string> {
  const merged = new Map<string, string>();
  for (const [key, { value }] of store.kvStore.get(instance) ?? []) merged.set(key, value);
  for (const [key, { value }] of store.kvDelta.get(instance) ?? []) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return merged;
}

/** One key of the live view; `null` when absent or cleared. @internal */
export function mergedKvValue(store: MemoryStore, instance: string, key: string): string | null {
  const pending = store.kvDelta.get(instance)?.get(key);
  if (pending !== undefined) return pending.value;
  return store.kvStore.get(instance)?.get(key)?.value ?? null;
}

/** Live key count and total UTF-8 bytes of the live values. @internal */
export function kvUsage(
  store: MemoryStore,
  instance: string,
): { readonly keyCount: number; readonly valueBytes: number } {
  let valueBytes = 0;
  const values = mergedKvValues(store, instance);
  for (const value of values.values()) valueBytes += textEncoder.encode(value).byteLength;
  return { keyCount: values.size, valueBytes };
}
