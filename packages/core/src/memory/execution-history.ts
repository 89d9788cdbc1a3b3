import type { Event } from '../model/event.js';
import { ProviderError } from '../provider/provider-error.js';
import { WireFormatError } from '../model/wire-format-error.js';
import {
  HistoryDecodeError,
  type HistoryRow,
  decodeHistory,
  encodeHistoryRow,
} from './history-rows.js';
import { type MemoryStore, entryOf } from './memory-store.js';

// The `history` table: append-only rows per (instance, execution, event id). Event ids come from
// the runtime; the store only refuses ids that are missing or already taken.

/**
 * The rows for appending `events` to the execution, checked but not yet stored.
 * @throws {ProviderError} (permanent) for an event id below 1 or one already stored (or repeated
 *   within `events`), or an event the wire format cannot hold.
 * @internal
 */
export function prepareHistoryRows(
  store: MemoryStore,
  operation: string,
  instance: string,
  executionId: number,
  events: readonly Event[],
): HistoryRow[] {
  const existing = store.historyRows(instance, executionId);
  const seen = new Set<number>();
  return events.map((event) => {
    const { eventId } = event;
    if (!Number.isSafeInteger(eventId) || eventId < 1) {
      throw ProviderError.permanent(
        operation,
        `Failed to append history: event_id must be set by the runtime (>= 1), got ${eventId}`,
      );
    }
    if (seen.has(eventId) || existing?.has(eventId) === true) {
      throw ProviderError.permanent(
        operation,
        `Failed to append history: duplicate event_id ${eventId} in execution ${executionId} ` +
          `of instance ${instance}`,
      );
    }
    seen.add(eventId);
    try {
      return encodeHistoryRow(event);
    } catch (error) {
      if (!WireFormatError.isInstance(error)) throw error;
      throw ProviderError.permanent(
        operation,
        `Failed to append history: event ${eventId} cannot be stored: ${error.message}`,
        { cause: error },
      );
    }
  });
}

/**
 * Stores rows made by {@link prepareHistoryRows}. Stored rows are never read or rewritten, so an
 * undecodable history can still receive the event that poisons it.
 * @internal
 */
export function appendHistoryRows(
  store: MemoryStore,
  instance: string,
  executionId: number,
  rows: readonly HistoryRow[],
): void {
  const byExecution = entryOf(store.history, instance, () => new Map());
  const stored = entryOf(byExecution, executionId, () => new Map());
  for (const row of rows) stored.set(row.eventId, row);
}

/**
 * One execution's history, in event-id order; `[]` when it has none.
 * @throws {ProviderError} (permanent) when a stored row does not decode.
 * @internal
 */
export function readExecutionHistory(
  store: MemoryStore,
  operation: string,
  instance: string,
  executionId: number,
): Event[] {
  try {
    return decodeHistory(store.historyRows(instance, executionId), instance, executionId);
  } catch (error) {
    if (!(error instanceof HistoryDecodeError)) throw error;
    throw ProviderError.permanent(operation, `Failed to deserialize event: ${error.message}`, {
      cause: error,
    });
  }
}
