import {
  ProviderError,
  WireFormatError,
  decodeEvent,
  encodeEvent,
  type Event,
  type EventType,
} from '@duro/core';
import type { SqliteDatabase } from '../database/sqlite-database.js';
import { isUniqueViolation } from '../database/sqlite-errors.js';

// The `history` table: append-only rows per (instance, execution, event id), `event_data` being
// the event as duroxide's serde JSON. Event ids come from the runtime; the table's primary key
// refuses one already taken.

/**
 * The `event_type` column as duroxide's SQLite provider fills it: the variant name, except that
 * the queue events keep the names they had before they were renamed. Nothing reads it.
 */
function historyEventType(type: EventType): string {
  switch (type) {
    case 'QueueSubscribed':
      return 'ExternalSubscribedPersistent';
    case 'QueueEventDelivered':
      return 'ExternalEventPersistent';
    case 'QueueSubscriptionCancelled':
      return 'ExternalSubscribedPersistentCancelled';
    default:
      return type;
  }
}

/** A history row that failed to decode, naming where it is. @internal */
export class HistoryDecodeError extends Error {
  override readonly name = 'HistoryDecodeError';
}

interface StoredEvent {
  readonly event_id: number;
  readonly event_data: string;
}

/**
 * The events of one execution, in event-id order; `[]` when it has none.
 * @throws {HistoryDecodeError} for the first row that does not decode.
 * @internal
 */
export function selectHistory(db: SqliteDatabase, instance: string, executionId: number): Event[] {
  const rows = db
    .statement(
      'SELECT event_id, event_data FROM history ' +
        'WHERE instance_id = ? AND execution_id = ? ORDER BY event_id',
    )
    .all(instance, executionId) as StoredEvent[];
  return rows.map((row) => {
    try {
      return decodeEvent(row.event_data);
    } catch (error) {
      if (!WireFormatError.isInstance(error)) throw error;
      throw new HistoryDecodeError(
        `history event ${row.event_id} of instance '${instance}' execution ${executionId} ` +
          `cannot be decoded: ${error.message}`,
        { cause: error },
      );
    }
  });
}

/**
 * {@link selectHistory} for a read of the contract, whose failure to decode is permanent.
 * @throws {ProviderError} (permanent) "Failed to deserialize event: …".
 * @internal
 */
export function readHistory(
  db: SqliteDatabase,
  operation: string,
  instance: string,
  executionId: number,
): Event[] {
  try {
    return selectHistory(db, instance, executionId);
  } catch (error) {
    if (!(error instanceof HistoryDecodeError)) throw error;
    throw ProviderError.permanent(operation, `Failed to deserialize event: ${error.message}`, {
      cause: error,
    });
  }
}

/**
 * The highest execution id of the instance's executions; 1 when it has none.
 * @internal
 */
export function latestExecutionId(db: SqliteDatabase, instance: string): number {
  const row = db
    .statement('SELECT MAX(execution_id) AS latest FROM executions WHERE instance_id = ?')
    .get(instance) as { latest: number | null };
  return row.latest ?? 1;
}

/**
 * Appends events to an execution's history (inside the caller's transaction), stamped `nowMs`.
 * @throws {ProviderError} (permanent) for an event id below 1 or one already stored (or repeated
 *   within `events`), or an event the wire format cannot hold.
 * @internal
 */
export function insertHistory(
  db: SqliteDatabase,
  operation: string,
  instance: string,
  executionId: number,
  events: readonly Event[],
  nowMs: number,
): void {
  const insert = db.statement(
    'INSERT INTO history (instance_id, execution_id, event_id, event_type, event_data, created_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const event of events) {
    const { eventId } = event;
    if (!Number.isSafeInteger(eventId) || eventId < 1) {
      throw ProviderError.permanent(
        operation,
        `Failed to append history: event_id must be set by the runtime (>= 1), got ${eventId}`,
      );
    }
    let eventData: string;
    try {
      eventData = encodeEvent(event);
    } catch (error) {
      if (!WireFormatError.isInstance(error)) throw error;
      throw ProviderError.permanent(
        operation,
        `Failed to append history: event ${eventId} cannot be stored: ${error.message}`,
        { cause: error },
      );
    }
    try {
      insert.run(
        instance,
        executionId,
        eventId,
        historyEventType(event.kind.type),
        eventData,
        nowMs,
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw ProviderError.permanent(
        operation,
        `Failed to append history: duplicate event_id ${eventId} in execution ${executionId} ` +
          `of instance ${instance}`,
        { cause: error },
      );
    }
  }
}
