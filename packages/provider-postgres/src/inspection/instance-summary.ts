import { readOptionalRow, readRows } from '../database/rows.js';
import type { InspectedSchema } from './inspected-schema.js';

/** One execution of an instance (continue-as-new starts the next). */
export interface ExecutionSummary {
  /** The execution's number, 1 for the first. */
  readonly executionId: number;
  /** How the execution stands: `Running`, `Completed`, `Failed`, `ContinuedAsNew`, ... */
  readonly status: string;
  /** Epoch ms. */
  readonly startedAtMs: number;
  /** Epoch ms; `null` while running (and for `ContinuedAsNew` on older schemas). */
  readonly completedAtMs: number | null;
  /** Events in its history. */
  readonly eventCount: number;
}

/** An instance row with its current execution, custom status and executions. */
export interface InstanceSummary {
  /** The instance id. */
  readonly instanceId: string;
  /** The orchestration the instance runs. */
  readonly orchestrationName: string;
  /** The orchestration version of its current execution; `null` when none was recorded. */
  readonly orchestrationVersion: string | null;
  /** The execution that runs now, or ran last. */
  readonly currentExecutionId: number;
  /** The current execution's status (`null` while that execution has no row yet). */
  readonly status: string | null;
  /** The instance that started it as a sub-orchestration; `null` for a root. */
  readonly parentInstanceId: string | null;
  /** Epoch ms. */
  readonly createdAtMs: number;
  /** Epoch ms of the last committed turn. */
  readonly updatedAtMs: number;
  /** The custom status the orchestration set last; `null` when it never set one. */
  readonly customStatus: string | null;
  /** Raised by every set or clear of the custom status. */
  readonly customStatusVersion: number;
  /** The duroxide version the current execution is pinned to, as `major.minor.patch`. */
  readonly pinnedDuroxideVersion: string | null;
  /** The newest executions, newest first (at most `maxExecutions`). */
  readonly executions: readonly ExecutionSummary[];
  /** How many executions the instance has in all. */
  readonly executionCount: number;
}

/**
 * The instance `instanceId`, or `null` when the schema has none (an instance gets its row with
 * its first committed turn).
 * @param maxExecutions most executions listed, newest first. @default 100
 */
export async function readInstanceSummary(
  schema: InspectedSchema,
  instanceId: string,
  maxExecutions = 100,
): Promise<InstanceSummary | null> {
  const s = schema.schemaSql;
  const { rows } = await schema.pool.query(
    `SELECT i.instance_id, i.orchestration_name, i.orchestration_version, i.current_execution_id,
            i.parent_instance_id, i.created_at, i.updated_at, i.custom_status,
            i.custom_status_version, e.status, e.duroxide_version_major AS major,
            e.duroxide_version_minor AS minor, e.duroxide_version_patch AS patch,
            (SELECT count(*) FROM ${s}.executions x WHERE x.instance_id = i.instance_id) AS execution_count
       FROM ${s}.instances i
       LEFT JOIN ${s}.executions e
         ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
      WHERE i.instance_id = $1`,
    [instanceId],
  );
  const row = readOptionalRow('instance summary', rows);
  if (row === null) return null;
  const { rows: executionRows } = await schema.pool.query(
    `SELECT e.execution_id, e.status, e.started_at, e.completed_at,
            (SELECT count(*) FROM ${s}.history h
              WHERE h.instance_id = e.instance_id AND h.execution_id = e.execution_id) AS event_count
       FROM ${s}.executions e
      WHERE e.instance_id = $1
      ORDER BY e.execution_id DESC
      LIMIT $2`,
    [instanceId, maxExecutions],
  );
  const major = row.optionalInteger('major');
  return {
    instanceId: row.text('instance_id'),
    orchestrationName: row.text('orchestration_name'),
    orchestrationVersion: row.optionalText('orchestration_version'),
    currentExecutionId: row.integer('current_execution_id'),
    status: row.optionalText('status'),
    parentInstanceId: row.optionalText('parent_instance_id'),
    createdAtMs: row.epochMs('created_at'),
    updatedAtMs: row.epochMs('updated_at'),
    customStatus: row.optionalText('custom_status'),
    customStatusVersion: row.integer('custom_status_version'),
    pinnedDuroxideVersion:
      major === null
        ? null
        : `${major}.${row.optionalInteger('minor') ?? 0}.${row.optionalInteger('patch') ?? 0}`,
    executions: readRows('instance executions', executionRows).map((execution) => ({
      executionId: execution.integer('execution_id'),
      status: execution.text('status'),
      startedAtMs: execution.epochMs('started_at'),
      completedAtMs: execution.optionalEpochMs('completed_at'),
      eventCount: execution.integer('event_count'),
    })),
    executionCount: row.integer('execution_count'),
  };
}
