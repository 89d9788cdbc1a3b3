import {
  ProviderError,
  eventFromWire,
  workItemFromWire,
  type Event,
  type KvEntry,
  type WorkItem,
} from '@duro/core';

/** Decoded history, or the reason it could not be decoded. @internal */
export interface DecodedHistory {
  readonly events: Event[];
  readonly error: string | null;
}

/** A decoded key-value snapshot, or the reason it could not be decoded. @internal */
export interface DecodedKvSnapshot {
  readonly entries: Map<string, KvEntry>;
  readonly error: string | null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The `out_history` array of `fetch_orchestration_item`. A history that does not decode is
 * reported, not thrown, with duroxide-pg's wording.
 * @internal
 */
export function decodeHistory(value: unknown): DecodedHistory {
  try {
    if (!Array.isArray(value)) throw new TypeError('$: expected an array of events');
    return { events: value.map((event, i) => eventFromWire(event, `$[${i}]`)), error: null };
  } catch (error) {
    return { events: [], error: `Failed to deserialize history: ${describe(error)}` };
  }
}

/**
 * The `out_messages` array of `fetch_orchestration_item`.
 * @throws {ProviderError} (permanent) when a message does not decode, as duroxide-pg does.
 * @internal
 */
export function decodeMessages(operation: string, instance: string, value: unknown): WorkItem[] {
  try {
    if (!Array.isArray(value)) throw new TypeError('$: expected an array of work items');
    return value.map((item, i) => workItemFromWire(item, `$[${i}]`));
  } catch (error) {
    throw ProviderError.permanent(
      operation,
      `Failed to deserialize messages: ${describe(error)} (instance ${instance})`,
      { cause: error },
    );
  }
}

function kvEntry(key: string, entry: unknown): KvEntry {
  const fields =
    typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
  const { value, last_updated_at_ms: lastUpdatedAtMs } = fields;
  if (typeof value !== 'string') {
    throw new TypeError(`entry ${JSON.stringify(key)}: field "value" is missing or not a string`);
  }
  if (
    typeof lastUpdatedAtMs !== 'number' ||
    !Number.isSafeInteger(lastUpdatedAtMs) ||
    lastUpdatedAtMs < 0
  ) {
    throw new TypeError(
      `entry ${JSON.stringify(key)}: field "last_updated_at_ms" is missing or not an unsigned integer`,
    );
  }
  return { value, lastUpdatedAtMs };
}

/**
 * The `out_kv_snapshot` object of `fetch_orchestration_item`:
 * `{key: {value, last_updated_at_ms}}`. One bad entry rejects the whole snapshot, reported (as
 * duroxide-pg 0.1.38 does) as a history error so the runtime poisons the instance rather than
 * replaying it without its state.
 * @internal
 */
export function decodeKvSnapshot(value: unknown): DecodedKvSnapshot {
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new TypeError('expected a JSON object');
    }
    const entries = new Map<string, KvEntry>();
    for (const [key, entry] of Object.entries(value)) entries.set(key, kvEntry(key, entry));
    return { entries, error: null };
  } catch (error) {
    return { entries: new Map(), error: `Failed to deserialize KV snapshot: ${describe(error)}` };
  }
}

/** Both errors joined with `; `, the one that is present, or `null`. @internal */
export function joinErrors(first: string | null, second: string | null): string | null {
  if (first === null) return second;
  return second === null ? first : `${first}; ${second}`;
}
