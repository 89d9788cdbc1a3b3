import { decodeWorkItem } from '@duro/core';
import { readRows } from '../database/rows.js';
import { COUNT_BOUND, countBounded, type BoundedCount } from './bounded-count.js';
import type { InspectedSchema } from './inspected-schema.js';

/** A timer message not yet due. */
export interface DueTimer {
  /** The instance the timer belongs to. */
  readonly instanceId: string;
  /** When it becomes visible, epoch ms. */
  readonly dueAtMs: number;
}

/** An instance lock (a turn in progress, or one whose worker died before releasing it). */
export interface HeldInstanceLock {
  /** The locked instance. */
  readonly instanceId: string;
  /** The lock token of the turn that holds it. */
  readonly lockToken: string;
  /** When the lock was taken, epoch ms. */
  readonly lockedAtMs: number;
  /** When its lease ends, epoch ms. */
  readonly lockedUntilMs: number;
}

/** A claimed activity of the worker queue and its lease. */
export interface ClaimedActivity {
  /** The instance that scheduled it; `null` when the row does not say. */
  readonly instanceId: string | null;
  /** The execution that scheduled it; `null` when the row does not say. */
  readonly executionId: number | null;
  /** The activity's id within that execution; `null` when the row does not say. */
  readonly activityId: number | null;
  /** The activity's name, from its work item (`null` for an unreadable one). */
  readonly activityName: string | null;
  /** When its lease ends, epoch ms. */
  readonly lockedUntilMs: number;
  /** Deliveries so far, this one included. */
  readonly attemptCount: number;
  /** The session it runs in; `null` for none. */
  readonly sessionId: string | null;
  /** Its tag; `null` for untagged. */
  readonly tag: string | null;
}

/** An activity session and the worker that owns it. */
export interface SessionOwner {
  /** The session id. */
  readonly sessionId: string;
  /** The worker that owns the session (its `workerNodeId` or runtime id). */
  readonly ownerId: string;
  /** When its ownership lapses unless renewed, epoch ms. */
  readonly lockedUntilMs: number;
  /** When an activity of the session last ran, epoch ms. */
  readonly lastActivityAtMs: number;
}

/** The state of the queues, locks and sessions of a schema at one moment. */
export interface QueueOverview {
  /** The moment the overview judges visibility and leases by, epoch ms. */
  readonly nowMs: number;
  /** The orchestrator queue's messages by state. */
  readonly orchestratorQueue: {
    /** Visible and not claimed: waiting for a dispatcher. */
    readonly ready: BoundedCount;
    /** Not visible yet: timers, delayed messages, abandoned turns backing off. */
    readonly delayed: BoundedCount;
    /** Claimed with their instance by a turn. */
    readonly claimed: BoundedCount;
  };
  /** The worker queue's activities by state. */
  readonly workerQueue: {
    /** Visible and not claimed: waiting for a worker. */
    readonly ready: BoundedCount;
    /** Retries backing off. */
    readonly delayed: BoundedCount;
    /** Claimed with a lease that has not ended. */
    readonly running: BoundedCount;
    /** Claimed with a lease that ended: the next fetch takes them again. */
    readonly leaseExpired: BoundedCount;
    /** Ready activities per tag, largest first. */
    readonly readyByTag: readonly {
      /** The tag; `null` for untagged activities. */
      readonly tag: string | null;
      /** Ready activities with it. */
      readonly count: number;
    }[];
  };
  /** Timer messages not yet due. */
  readonly dueTimers: {
    /** How many there are. */
    readonly count: BoundedCount;
    /** The ones due soonest. */
    readonly next: readonly DueTimer[];
  };
  /** The rows of `instance_locks`. */
  readonly instanceLocks: {
    /** Locks whose lease has not ended: turns in progress. */
    readonly held: BoundedCount;
    /** Locks whose lease ended: the next fetch takes the instance over. */
    readonly expired: BoundedCount;
    /** The held locks taken longest ago. */
    readonly oldest: readonly HeldInstanceLock[];
  };
  /** The claimed activities whose lease ends first. */
  readonly claimedActivities: readonly ClaimedActivity[];
  /** The activity sessions with an owner. */
  readonly sessions: {
    /** How many there are. */
    readonly count: BoundedCount;
    /** The ones whose ownership lapses first. */
    readonly owners: readonly SessionOwner[];
  };
}

/** How many rows each list of the overview shows. */
const LISTED = 20;

/**
 * Reads the queues, instance locks and sessions of the schema as of `nowMs`, counting at most
 * 50,000 rows per figure.
 */
export async function readQueueOverview(
  schema: InspectedSchema,
  nowMs: number,
): Promise<QueueOverview> {
  const s = schema.schemaSql;
  const now = [nowMs];
  const visible = 'visible_at <= to_timestamp($1::float8 / 1000)';
  const count = (from: string, values: readonly unknown[] = now) =>
    countBounded(schema, from, values);
  const query = async (sql: string, values: readonly unknown[] = now) =>
    readRows('queue overview', (await schema.pool.query(sql, [...values])).rows);
  const [timerRows, lockRows, activityRows, sessionRows, tagRows] = await Promise.all([
    query(
      `SELECT instance_id, visible_at FROM ${s}.orchestrator_queue
        WHERE visible_at > to_timestamp($1::float8 / 1000) AND work_item LIKE '{"TimerFired"%'
        ORDER BY visible_at LIMIT ${LISTED}`,
    ),
    query(
      `SELECT instance_id, lock_token, locked_at, locked_until FROM ${s}.instance_locks
        WHERE locked_until > $1 ORDER BY locked_at LIMIT ${LISTED}`,
    ),
    query(
      `SELECT instance_id, execution_id, activity_id, work_item, locked_until, attempt_count,
              session_id, tag
         FROM ${s}.worker_queue
        WHERE lock_token IS NOT NULL AND locked_until > $1 ORDER BY locked_until LIMIT ${LISTED}`,
    ),
    query(
      `SELECT session_id, worker_id, locked_until, last_activity_at FROM ${s}.sessions
        ORDER BY last_activity_at DESC LIMIT ${LISTED}`,
      [],
    ),
    query(
      `SELECT tag, count(*) AS ready FROM (
         SELECT tag FROM ${s}.worker_queue
          WHERE lock_token IS NULL AND ${visible} LIMIT ${COUNT_BOUND + 1}) r
        GROUP BY tag ORDER BY ready DESC LIMIT ${LISTED}`,
    ),
  ]);
  const later = 'visible_at > to_timestamp($1::float8 / 1000)';
  // The figures are read side by side: together they cost about the slowest of them.
  const [
    orchestratorReady,
    orchestratorDelayed,
    orchestratorClaimed,
    workerReady,
    workerDelayed,
    workerRunning,
    workerLeaseExpired,
    timersPending,
    locksHeld,
    locksExpired,
    sessionCount,
  ] = await Promise.all([
    count(`${s}.orchestrator_queue WHERE lock_token IS NULL AND ${visible}`),
    count(`${s}.orchestrator_queue WHERE lock_token IS NULL AND ${later}`),
    count(`${s}.orchestrator_queue WHERE lock_token IS NOT NULL`, []),
    count(`${s}.worker_queue WHERE lock_token IS NULL AND ${visible}`),
    count(`${s}.worker_queue WHERE lock_token IS NULL AND ${later}`),
    count(`${s}.worker_queue WHERE lock_token IS NOT NULL AND locked_until > $1`),
    count(`${s}.worker_queue WHERE lock_token IS NOT NULL AND locked_until <= $1`),
    count(`${s}.orchestrator_queue WHERE ${later} AND work_item LIKE '{"TimerFired"%'`),
    count(`${s}.instance_locks WHERE locked_until > $1`),
    count(`${s}.instance_locks WHERE locked_until <= $1`),
    count(`${s}.sessions`, []),
  ]);
  return {
    nowMs,
    orchestratorQueue: {
      ready: orchestratorReady,
      delayed: orchestratorDelayed,
      claimed: orchestratorClaimed,
    },
    workerQueue: {
      ready: workerReady,
      delayed: workerDelayed,
      running: workerRunning,
      leaseExpired: workerLeaseExpired,
      readyByTag: tagRows.map((row) => ({
        tag: row.optionalText('tag'),
        count: row.integer('ready'),
      })),
    },
    dueTimers: {
      count: timersPending,
      next: timerRows.map((row) => ({
        instanceId: row.text('instance_id'),
        dueAtMs: row.epochMs('visible_at'),
      })),
    },
    instanceLocks: {
      held: locksHeld,
      expired: locksExpired,
      oldest: lockRows.map((row) => ({
        instanceId: row.text('instance_id'),
        lockToken: row.text('lock_token'),
        lockedAtMs: row.integer('locked_at'),
        lockedUntilMs: row.integer('locked_until'),
      })),
    },
    claimedActivities: activityRows.map((row) => ({
      instanceId: row.optionalText('instance_id'),
      executionId: row.optionalInteger('execution_id'),
      activityId: row.optionalInteger('activity_id'),
      activityName: activityName(row.text('work_item')),
      lockedUntilMs: row.integer('locked_until'),
      attemptCount: row.integer('attempt_count'),
      sessionId: row.optionalText('session_id'),
      tag: row.optionalText('tag'),
    })),
    sessions: {
      count: sessionCount,
      owners: sessionRows.map((row) => ({
        sessionId: row.text('session_id'),
        ownerId: row.text('worker_id'),
        lockedUntilMs: row.integer('locked_until'),
        lastActivityAtMs: row.integer('last_activity_at'),
      })),
    },
  };
}

function activityName(workItem: string): string | null {
  try {
    const item = decodeWorkItem(workItem);
    return item.type === 'ActivityExecute' ? item.name : null;
  } catch {
    return null;
  }
}
