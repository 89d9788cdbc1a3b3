import { decodeWorkItem } from '@duro/core';
import type { InspectedSchema } from './inspected-schema.js';

/** A queued message of the instance, orchestrator or worker queue. */
export interface QueuedMessage {
  /** The queue row's id. */
  readonly id: number;
  /** The work item's variant (`TimerFired`, `ActivityExecute`, ...). */
  readonly type: string;
  /** The activity name, for `ActivityExecute`. */
  readonly activityName: string | null;
  /** The activity's id within its execution, for `ActivityExecute`. */
  readonly activityId: number | null;
  /** When the message becomes (or became) visible to fetches, epoch ms. */
  readonly visibleAtMs: number;
  /** The lock token of the fetch that claimed it; `null` while unclaimed. */
  readonly lockToken: string | null;
  /** When that claim's lease ends, epoch ms; `null` while unclaimed. */
  readonly lockedUntilMs: number | null;
  /** Deliveries so far. */
  readonly attemptCount: number;
  /** The session the activity runs in; `null` for none (and for orchestrator messages). */
  readonly sessionId: string | null;
  /** The activity's tag; `null` for untagged (and for orchestrator messages). */
  readonly tag: string | null;
  /** When the message was written, epoch ms. */
  readonly createdAtMs: number;
}

/** A session row: which worker owns it and until when. */
export interface SessionLease {
  /** The session id. */
  readonly sessionId: string;
  /** The worker that owns the session (its `workerNodeId` or runtime id). */
  readonly ownerId: string;
  /** When its ownership lapses unless renewed, epoch ms. */
  readonly lockedUntilMs: number;
  /** When an activity of the session last ran, epoch ms. */
  readonly lastActivityAtMs: number;
}

/** Everything the store holds that decides whether an instance can run now. */
export interface InstanceDiagnosis {
  /** The instance asked about. */
  readonly instanceId: string;
  /**
   * The instance row and its current execution; `null` before its first turn commits (or for an
   * unknown id).
   */
  readonly instance: {
    /** The orchestration the instance runs. */
    readonly orchestrationName: string;
    /** Its orchestration version; `null` when none was recorded. */
    readonly orchestrationVersion: string | null;
    /** The current execution. */
    readonly executionId: number;
    /** The current execution's status; `null` when it has no execution row. */
    readonly status: string | null;
    /** When the current execution ended, epoch ms; `null` while it runs. */
    readonly completedAtMs: number | null;
    /** The duroxide version (`major.minor.patch`) the execution is pinned to; `null` when none. */
    readonly pinnedVersion: string | null;
  } | null;
  /** The instance's row in `instance_locks`, live or expired; `null` when it has none. */
  readonly lock: {
    /** The lock token of the turn that holds it. */
    readonly lockToken: string;
    /** When the lock was taken, epoch ms. */
    readonly lockedAtMs: number;
    /** When its lease ends, epoch ms. */
    readonly lockedUntilMs: number;
  } | null;
  /** Its messages in the orchestrator queue, in visibility order (at most 100). */
  readonly orchestratorMessages: readonly QueuedMessage[];
  /** Its activities in the worker queue, oldest first (at most 100). */
  readonly workerMessages: readonly QueuedMessage[];
  /** The sessions of those activities. */
  readonly sessions: readonly SessionLease[];
}

/** Most queued messages read per queue; an instance with more is far from its usual shape. */
const MESSAGE_LIMIT = 100;

type Row = Record<string, unknown>;

const asNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
const asText = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/**
 * Reads the instance row, its current execution (status and pinned duroxide version), its
 * `instance_locks` row, its messages in both queues, and the sessions of its queued activities,
 * as of now (one snapshot per query; they are read in that order).
 */
export async function readInstanceDiagnosis(
  schema: InspectedSchema,
  instanceId: string,
): Promise<InstanceDiagnosis> {
  const s = schema.schemaSql;
  const query = async (sql: string, values: unknown[]): Promise<Row[]> =>
    (await schema.pool.query<Row>(sql, values)).rows;
  const [instanceRow] = await query(
    `SELECT i.orchestration_name, i.orchestration_version, i.current_execution_id, e.status,
            (EXTRACT(EPOCH FROM e.completed_at) * 1000)::bigint AS completed_ms,
            e.duroxide_version_major AS major, e.duroxide_version_minor AS minor,
            e.duroxide_version_patch AS patch
       FROM ${s}.instances i
       LEFT JOIN ${s}.executions e
         ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
      WHERE i.instance_id = $1`,
    [instanceId],
  );
  const [lockRow] = await query(
    `SELECT lock_token, locked_at, locked_until FROM ${s}.instance_locks WHERE instance_id = $1`,
    [instanceId],
  );
  const messageColumns = `id, work_item, lock_token, locked_until, attempt_count,
      (EXTRACT(EPOCH FROM visible_at) * 1000)::bigint AS visible_ms,
      (EXTRACT(EPOCH FROM created_at) * 1000)::bigint AS created_ms`;
  const orchestrator = await query(
    `SELECT ${messageColumns}, NULL AS session_id, NULL AS tag
       FROM ${s}.orchestrator_queue WHERE instance_id = $1 ORDER BY visible_at, id LIMIT ${MESSAGE_LIMIT}`,
    [instanceId],
  );
  const worker = await query(
    `SELECT ${messageColumns}, session_id, tag
       FROM ${s}.worker_queue WHERE instance_id = $1 ORDER BY id LIMIT ${MESSAGE_LIMIT}`,
    [instanceId],
  );
  const sessionIds = [
    ...new Set(worker.map((row) => asText(row.session_id)).filter((id) => id !== null)),
  ];
  const sessions =
    sessionIds.length === 0
      ? []
      : await query(
          `SELECT session_id, worker_id, locked_until, last_activity_at FROM ${s}.sessions WHERE session_id = ANY($1)`,
          [sessionIds],
        );
  const major = asNumber(instanceRow?.major);
  return {
    instanceId,
    instance: instanceRow
      ? {
          orchestrationName: String(instanceRow.orchestration_name),
          orchestrationVersion: asText(instanceRow.orchestration_version),
          executionId: Number(instanceRow.current_execution_id),
          status: asText(instanceRow.status),
          completedAtMs: asNumber(instanceRow.completed_ms),
          pinnedVersion:
            major === null
              ? null
              : `${major}.${asNumber(instanceRow.minor) ?? 0}.${asNumber(instanceRow.patch) ?? 0}`,
        }
      : null,
    lock: lockRow
      ? {
          lockToken: String(lockRow.lock_token),
          lockedAtMs: Number(lockRow.locked_at),
          lockedUntilMs: Number(lockRow.locked_until),
        }
      : null,
    orchestratorMessages: orchestrator.map(queuedMessage),
    workerMessages: worker.map(queuedMessage),
    sessions: sessions.map((row) => ({
      sessionId: String(row.session_id),
      ownerId: String(row.worker_id),
      lockedUntilMs: Number(row.locked_until),
      lastActivityAtMs: Number(row.last_activity_at),
    })),
  };
}

function queuedMessage(row: Row): QueuedMessage {
  let type = 'unreadable';
  let activityName: string | null = null;
  let activityId: number | null = null;
  try {
    const item = decodeWorkItem(String(row.work_item));
    type = item.type;
    if (item.type === 'ActivityExecute') {
      activityName = item.name;
      activityId = item.id;
    }
  } catch {
    // A message the runtime cannot read either: shown as 'unreadable'.
  }
  return {
    id: Number(row.id),
    type,
    activityName,
    activityId,
    visibleAtMs: Number(row.visible_ms),
    lockToken: asText(row.lock_token),
    lockedUntilMs: asNumber(row.locked_until),
    attemptCount: Number(row.attempt_count),
    sessionId: asText(row.session_id),
    tag: asText(row.tag),
    createdAtMs: Number(row.created_ms),
  };
}
