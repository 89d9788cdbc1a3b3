import { readOptionalRow } from '../database/rows.js';
import type { InspectedSchema } from './inspected-schema.js';

/**
 * Running totals of what the schema has done, read cheaply at any moment; the difference of two
 * readings over their time apart is a throughput. A total is `null` when PostgreSQL does not
 * show it (its statistics are off, or the role may not read a sequence).
 */
export interface ActivityCounters {
  /** When the counters were read, epoch ms. */
  readonly readAtMs: number;
  /** Messages ever sent to orchestrations (starts, completions, timers, events): the queue's id sequence. */
  readonly orchestratorMessages: number | null;
  /** Activities ever scheduled: the worker queue's id sequence. */
  readonly activitiesScheduled: number | null;
  /** Activities acknowledged (worker queue rows deleted), from PostgreSQL's table statistics. */
  readonly activitiesFinished: number | null;
  /** Instances created, from PostgreSQL's table statistics. */
  readonly instancesCreated: number | null;
  /** History events written, from PostgreSQL's table statistics. */
  readonly historyEvents: number | null;
}

/**
 * Reads the {@link ActivityCounters}. The statistics totals trail by the server's flush delay (a
 * second or so) and count since the statistics were last reset.
 */
export async function readActivityCounters(
  schema: InspectedSchema,
  nowMs: number,
): Promise<ActivityCounters> {
  const s = schema.schemaSql;
  const { rows } = await schema.pool.query(
    `SELECT pg_sequence_last_value(pg_get_serial_sequence($2, 'id')::regclass) AS orchestrator_messages,
            pg_sequence_last_value(pg_get_serial_sequence($3, 'id')::regclass) AS activities_scheduled,
            (SELECT n_tup_del FROM pg_stat_user_tables
              WHERE schemaname = $1 AND relname = 'worker_queue') AS activities_finished,
            (SELECT n_tup_ins FROM pg_stat_user_tables
              WHERE schemaname = $1 AND relname = 'instances') AS instances_created,
            (SELECT n_tup_ins FROM pg_stat_user_tables
              WHERE schemaname = $1 AND relname = 'history') AS history_events`,
    [schema.schemaName, `${s}.orchestrator_queue`, `${s}.worker_queue`],
  );
  const row = readOptionalRow('activity counters', rows);
  const total = (column: string) => row?.optionalInteger(column) ?? null;
  return {
    readAtMs: nowMs,
    // A sequence never used has no last value: nothing was sent yet.
    orchestratorMessages: total('orchestrator_messages') ?? 0,
    activitiesScheduled: total('activities_scheduled') ?? 0,
    activitiesFinished: total('activities_finished'),
    instancesCreated: total('instances_created'),
    historyEvents: total('history_events'),
  };
}
