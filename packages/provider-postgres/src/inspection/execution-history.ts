import { decodeEvent, type Event } from '@duro/core';
import { readRows, type RowReader } from '../database/rows.js';
import type { InspectedSchema } from './inspected-schema.js';

/** One stored history event, with the time its turn was committed. */
export interface HistoryRecord {
  /** The event's id within its execution, from 1 in the order written. */
  readonly eventId: number;
  /** The `created_at` of the row: when the turn that wrote the event was committed, epoch ms. */
  readonly committedAtMs: number;
  /** The decoded event, or `null` when its JSON is not an event duro reads. */
  readonly event: Event | null;
  /** The stored JSON, given only when it could not be decoded. */
  readonly unreadableData?: string;
}

/** The events of one execution, first ones first. */
export interface ExecutionHistory {
  /** The events read, in event id order. */
  readonly records: readonly HistoryRecord[];
  /** How many events the execution has in all. */
  readonly eventCount: number;
  /**
   * The execution's last event when `records` stops before it (more than `maxEvents` events),
   * so its outcome is known; otherwise `null`.
   */
  readonly lastRecord: HistoryRecord | null;
}

/**
 * The first `maxEvents` events of an execution, with the commit time of each.
 * @param maxEvents @default 5000
 */
export async function readExecutionHistory(
  schema: InspectedSchema,
  instanceId: string,
  executionId: number,
  maxEvents = 5_000,
): Promise<ExecutionHistory> {
  const s = schema.schemaSql;
  const { rows } = await schema.pool.query(
    `SELECT event_id, event_data, created_at FROM ${s}.history
      WHERE instance_id = $1 AND execution_id = $2
      ORDER BY event_id LIMIT $3`,
    [instanceId, executionId, maxEvents],
  );
  const records = readRows('execution history', rows).map(historyRecord);
  if (records.length < maxEvents) {
    return { records, eventCount: records.length, lastRecord: null };
  }
  const { rows: tail } = await schema.pool.query(
    `SELECT event_id, event_data, created_at,
            (SELECT count(*) FROM ${s}.history
              WHERE instance_id = $1 AND execution_id = $2) AS event_count
       FROM ${s}.history
      WHERE instance_id = $1 AND execution_id = $2
      ORDER BY event_id DESC LIMIT 1`,
    [instanceId, executionId],
  );
  const [last] = readRows('execution history', tail);
  const eventCount = last?.integer('event_count') ?? records.length;
  return {
    records,
    eventCount,
    lastRecord: last && eventCount > records.length ? historyRecord(last) : null,
  };
}

function historyRecord(row: RowReader): HistoryRecord {
  const eventId = row.integer('event_id');
  const committedAtMs = row.epochMs('created_at');
  const data = row.text('event_data');
  try {
    return { eventId, committedAtMs, event: decodeEvent(data) };
  } catch {
    return { eventId, committedAtMs, event: null, unreadableData: data };
  }
}
