import { randomUUID } from 'node:crypto';
import type { SemverVersion } from '../model/semver.js';
import type { WorkItem, WorkItemOf } from '../model/work-item.js';
import type { ExecutionStatus } from '../provider/execution-metadata.js';
import type { HistoryRow } from './history-rows.js';
import { WorkSignal } from '../provider/work-signal.js';

// The store mirrors the tables of duroxide's SQLite provider (see `src/providers/sqlite.rs`):
// one field per table, rows as mutable records owned by the store. Nothing here leaves the
// store without a copy; callers of the provider only ever see clones.

/** An `instances` row, created by the first ack that names the orchestration. @internal */
export interface InstanceRow {
  readonly instanceId: string;
  orchestrationName: string;
  orchestrationVersion: string;
  currentExecutionId: number;
  customStatus: string | null;
  customStatusVersion: number;
  readonly createdAtMs: number;
  updatedAtMs: number;
  /** Set once at creation, never changed. */
  readonly parentInstanceId: string | null;
  /** Creation order, to list newest first when two instances share a millisecond. */
  readonly creationSeq: number;
}

/** An `executions` row. @internal */
export interface ExecutionRow {
  readonly executionId: number;
  status: ExecutionStatus;
  output: string | null;
  pinnedVersion: SemverVersion | null;
  readonly startedAtMs: number;
  completedAtMs: number | null;
}

/** An `orchestrator_queue` row. @internal */
export interface OrchestratorMessage {
  readonly seq: number;
  readonly instance: string;
  readonly item: WorkItem;
  visibleAtMs: number;
  /** Token of the fetch that last took this row into its batch. */
  lockToken: string | null;
  attemptCount: number;
}

/** An `instance_locks` row. @internal */
export interface InstanceLock {
  readonly instance: string;
  readonly token: string;
  lockedUntilMs: number;
}

/** A `worker_queue` row; its identity columns are read from `item`. @internal */
export interface WorkerMessage {
  readonly seq: number;
  readonly item: WorkItemOf<'ActivityExecute'>;
  visibleAtMs: number;
  lockToken: string | null;
  lockedUntilMs: number;
  attemptCount: number;
}

/** A `sessions` row: which owner a session is pinned to, and until when. @internal */
export interface SessionRow {
  ownerId: string;
  lockedUntilMs: number;
  lastActivityAtMs: number;
}

/** A `kv_store` value (committed by a finished execution). @internal */
export interface StoredKvValue {
  value: string;
  lastUpdatedAtMs: number;
}

/** A `kv_delta` value of the running execution; `null` is a tombstone. @internal */
export interface DeltaKvValue {
  value: string | null;
  lastUpdatedAtMs: number;
}

/** The value under `key`, first storing `create()` there when there is none. @internal */
export function entryOf<K, V>(map: Map<K, V>, key: K, create: () => NoInfer<V>): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/** Every table of an in-memory provider, plus its clock and wake-up signals. @internal */
export class MemoryStore {
  readonly instances = new Map<string, InstanceRow>();
  /** instance → execution id → row. */
  readonly executions = new Map<string, Map<number, ExecutionRow>>();
  /** instance → execution id → event id → row (history can exist without an execution row). */
  readonly history = new Map<string, Map<number, Map<number, HistoryRow>>>();
  /** Rows in insertion (`seq`) order. */
  orchestratorQueue: OrchestratorMessage[] = [];
  readonly instanceLocks = new Map<string, InstanceLock>();
  /** Rows in insertion (`seq`) order. */
  workerQueue: WorkerMessage[] = [];
  readonly sessions = new Map<string, SessionRow>();
  readonly kvStore = new Map<string, Map<string, StoredKvValue>>();
  readonly kvDelta = new Map<string, Map<string, DeltaKvValue>>();
  readonly orchestratorWork = new WorkSignal();
  readonly workerWork = new WorkSignal();
  private lastSeq = 0;

  constructor(
    /** The store's clock, epoch milliseconds. */
    readonly nowMs: () => number,
  ) {}

  /** The next insertion sequence number. */
  nextSeq(): number {
    this.lastSeq += 1;
    return this.lastSeq;
  }

  /** A fresh, unique lock token. */
  newLockToken(): string {
    return `lock_${randomUUID()}`;
  }

  /** The instance lock that `token` names, live or expired. */
  instanceLockByToken(token: string): InstanceLock | undefined {
    for (const lock of this.instanceLocks.values()) {
      if (lock.token === token) return lock;
    }
    return undefined;
  }

  /** Whether a live (unexpired) lock is held on the instance. */
  isInstanceLocked(instance: string, nowMs: number): boolean {
    const lock = this.instanceLocks.get(instance);
    return lock !== undefined && lock.lockedUntilMs > nowMs;
  }

  /** The highest execution id of the instance's execution rows; 1 when it has none. */
  latestExecutionId(instance: string): number {
    const executions = this.executions.get(instance);
    return executions === undefined || executions.size === 0 ? 1 : Math.max(...executions.keys());
  }

  /** The history rows of one execution, if any. */
  historyRows(instance: string, executionId: number): Map<number, HistoryRow> | undefined {
    return this.history.get(instance)?.get(executionId);
  }

  /** The pinned version of the instance's current execution; `null` when there is none. */
  currentPinnedVersion(instance: string): SemverVersion | null {
    const row = this.instances.get(instance);
    if (row === undefined) return null;
    return this.executions.get(instance)?.get(row.currentExecutionId)?.pinnedVersion ?? null;
  }

  /** The status of the instance's current execution, when both rows exist. */
  currentStatus(instance: string): ExecutionStatus | undefined {
    const row = this.instances.get(instance);
    if (row === undefined) return undefined;
    return this.executions.get(instance)?.get(row.currentExecutionId)?.status;
  }
}
