import type { Event } from '../model/event.js';
import { decodeEvent, encodeEvent } from '../model/event-codec.js';
import { WireFormatError } from '../model/wire-format-error.js';

/**
 * One stored history row: the event as the JSON text duroxide's serde writes (what the
 * `history.event_data` column of duroxide's SQLite and PostgreSQL providers holds). Storing text
 * keeps the stored state apart from callers' objects and makes the undecodable-history paths of
 * the contract real.
 * @internal
 */
export interface HistoryRow {
  readonly eventId: number;
  readonly eventData: string;
}

const textEncoder = new TextEncoder();

/**
 * The row for `event`.
 * @throws {WireFormatError} when the event has an id or timestamp that is not a u64.
 * @internal
 */
export function encodeHistoryRow(event: Event): HistoryRow {
  return { eventId: event.eventId, eventData: encodeEvent(event) };
}

/**
 * A row for `eventId` with an event kind this runtime does not know, as a newer runtime could
 * have written it.
 * @internal
 */
export function undecodableHistoryRow(
  instance: string,
  executionId: number,
  eventId: number,
): HistoryRow {
  return {
    eventId,
    eventData: JSON.stringify({
      event_id: eventId,
      source_event_id: null,
      instance_id: instance,
      execution_id: executionId,
      timestamp_ms: 0,
      duroxide_version: '99.0.0',
      type: 'EventKindFromTheFuture',
    }),
  };
}

/** Stored size of a row: the UTF-8 bytes of its JSON. @internal */
export function historyRowBytes(row: HistoryRow): number {
  return textEncoder.encode(row.eventData).byteLength;
}

/** Thrown by {@link decodeHistoryRow} for a row that does not decode. @internal */
export class HistoryDecodeError extends Error {
  override readonly name = 'HistoryDecodeError';
}

/**
 * The event a row holds.
 * @throws {HistoryDecodeError} naming the row and what is wrong with it.
 * @internal
 */
export function decodeHistoryRow(row: HistoryRow, instance: string, executionId: number): Event {
  try {
    return decodeEvent(row.eventData);
  } catch (error) {
    if (!WireFormatError.isInstance(error)) throw error;
    throw new HistoryDecodeError(
      `history event ${row.eventId} of instance '${instance}' execution ${executionId} ` +
        `cannot be decoded: ${error.message}`,
      { cause: error },
    );
  }
}

/**
 * The events of one execution's rows, in event-id order.
 * @throws {HistoryDecodeError} for the first row that does not decode.
 * @internal
 */
export function decodeHistory(
  rows: ReadonlyMap<number, HistoryRow> | undefined,
  instance: string,
  executionId: number,
): Event[] {
  if (rows === undefined) return [];
  return [...rows.values()]
    .sort((a, b) => a.eventId - b.eventId)
    .map((row) => decodeHistoryRow(row, instance, executionId));
}
