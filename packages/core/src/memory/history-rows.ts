import type { Event } from '../model/event.js';

/**
 * One stored history row. Events are kept as structured clones; a row can also hold data that
 * does not decode (what a newer runtime could have written), so that the corrupted-history paths
 * of the contract are real in this store too.
 * @internal
 */
export type HistoryRow =
  | { readonly eventId: number; readonly event: Event; readonly sizeBytes: number }
  | { readonly eventId: number; readonly undecodable: string };

const textEncoder = new TextEncoder();

/** A row holding a private copy of `event`. @internal */
export function encodeHistoryRow(event: Event): HistoryRow {
  const copy = structuredClone(event);
  return {
    eventId: copy.eventId,
    event: copy,
    // Stands in for the byte size of the serialized event until the wire codec is used here.
    sizeBytes: textEncoder.encode(JSON.stringify(copy)).byteLength,
  };
}

/** A row in place of `eventId` whose data cannot be decoded. @internal */
export function undecodableHistoryRow(eventId: number): HistoryRow {
  return {
    eventId,
    undecodable: `{"event_id":${eventId},"type":"EventKindFromTheFuture","payload":"?"}`,
  };
}

/** Stored size of a row, in bytes. @internal */
export function historyRowBytes(row: HistoryRow): number {
  return 'event' in row ? row.sizeBytes : textEncoder.encode(row.undecodable).byteLength;
}

/** Thrown by {@link decodeHistory} for a row that does not decode. @internal */
export class HistoryDecodeError extends Error {
  override readonly name = 'HistoryDecodeError';
}

/**
 * Copies of the events of one execution's rows, in event-id order.
 * @throws {HistoryDecodeError} naming the first row that does not decode.
 * @internal
 */
export function decodeHistory(
  rows: ReadonlyMap<number, HistoryRow> | undefined,
  instance: string,
  executionId: number,
): Event[] {
  if (rows === undefined) return [];
  const ordered = [...rows.values()].sort((a, b) => a.eventId - b.eventId);
  return ordered.map((row, position) => {
    if ('event' in row) return structuredClone(row.event);
    throw new HistoryDecodeError(
      `history event at position ${position} (event_id ${row.eventId}) of instance ` +
        `'${instance}' execution ${executionId} cannot be decoded: unknown variant in ${row.undecodable}`,
    );
  });
}
