import type { Event } from '../model/event.js';
import type { KvEntry } from '../provider/orchestration-item.js';

/** Most unread queue messages carried into the next execution by continue-as-new. */
export const MAX_CARRY_FORWARD_EVENTS = 100;
/** Largest custom status, in UTF-8 bytes. */
export const MAX_CUSTOM_STATUS_BYTES = 256 * 1024;
/** Longest activity tag, in UTF-8 bytes. */
export const MAX_TAG_NAME_BYTES = 256;
/** Most keys in one instance's key-value store. */
export const MAX_KV_KEYS = 150;
/** Largest key-value value, in UTF-8 bytes. */
export const MAX_KV_VALUE_BYTES = 64 * 1024;

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The first runtime limit a turn's new events break, as the message duroxide fails the
 * orchestration with, or `null`. Checked in duroxide's order: custom status size, tag size,
 * KV value size, KV key count (snapshot plus this turn's changes).
 * @internal
 */
export function limitViolation(
  delta: readonly Event[],
  kvSnapshot: ReadonlyMap<string, KvEntry>,
): string | null {
  for (let index = delta.length - 1; index >= 0; index -= 1) {
    const kind = delta[index]?.kind;
    if (kind?.type !== 'CustomStatusUpdated' || kind.status === null) continue;
    const bytes = utf8Bytes(kind.status);
    if (bytes > MAX_CUSTOM_STATUS_BYTES) {
      return `Custom status size (${bytes} bytes) exceeds limit (${MAX_CUSTOM_STATUS_BYTES} bytes)`;
    }
    break;
  }
  for (const { kind } of delta) {
    if (kind.type !== 'ActivityScheduled' || kind.tag === undefined) continue;
    const bytes = utf8Bytes(kind.tag);
    if (bytes > MAX_TAG_NAME_BYTES) {
      return `Activity '${kind.name}' tag size (${bytes} bytes) exceeds limit (${MAX_TAG_NAME_BYTES} bytes)`;
    }
  }
  for (const { kind } of delta) {
    if (kind.type !== 'KeyValueSet') continue;
    const bytes = utf8Bytes(kind.value);
    if (bytes > MAX_KV_VALUE_BYTES) {
      return `KV value for key '${kind.key}' (${bytes} bytes) exceeds limit (${MAX_KV_VALUE_BYTES} bytes)`;
    }
  }
  const keys = new Set(kvSnapshot.keys());
  for (const { kind } of delta) {
    if (kind.type === 'KeyValueSet') keys.add(kind.key);
    else if (kind.type === 'KeyValueCleared') keys.delete(kind.key);
    else if (kind.type === 'KeyValuesCleared') keys.clear();
  }
  if (keys.size > MAX_KV_KEYS) return `KV key count (${keys.size}) exceeds limit (${MAX_KV_KEYS})`;
  return null;
}
