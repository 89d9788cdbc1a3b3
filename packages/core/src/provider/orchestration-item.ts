import type { Event } from '../model/event.js';
import type { WorkItem } from '../model/work-item.js';
import type { ExecutionMetadata } from './execution-metadata.js';
import type { ProviderError } from './provider-error.js';

/** One committed key-value entry of an instance. */
export interface KvEntry {
  /** The value. */
  readonly value: string;
  /** When the runtime last set the key, in epoch milliseconds. */
  readonly lastUpdatedAtMs: number;
}

/**
 * A locked batch of work for one instance, as duroxide's `OrchestrationItem`: everything a turn
 * needs. Nobody else can change the instance until the batch is acknowledged or abandoned.
 */
export interface OrchestrationItem {
  /** The instance id. */
  readonly instance: string;
  /** The orchestration the instance runs. */
  readonly orchestrationName: string;
  /** The current execution (1, then one more per continue-as-new). */
  readonly executionId: number;
  /** The orchestration version the current execution runs. */
  readonly version: string;
  /** Every event of the current execution, in event-id order. */
  readonly history: readonly Event[];
  /** The messages this fetch locked, oldest first. */
  readonly messages: readonly WorkItem[];
  /**
   * Set when the stored history could not be decoded; `history` is then empty. The lock is still
   * held, so the runtime can count the attempt and eventually poison the instance.
   */
  readonly historyError: string | null;
  /** The instance's committed key-value state (of finished executions only). */
  readonly kvSnapshot: ReadonlyMap<string, KvEntry>;
}

/** A fetched orchestration item with its lock. */
export interface FetchedOrchestrationItem {
  /** The locked work. */
  readonly item: OrchestrationItem;
  /** Token that acknowledges, abandons or renews this batch. */
  readonly lockToken: string;
  /** The highest delivery attempt among the batch's messages, counting this one. */
  readonly attemptCount: number;
}

/** A fetched activity with its lock. */
export interface FetchedWorkItem {
  /** The activity to run (an `ActivityExecute`). */
  readonly item: WorkItem;
  /** Token that acknowledges, abandons or renews the activity. */
  readonly lockToken: string;
  /** Delivery attempt of this message, counting this one. */
  readonly attemptCount: number;
}

/** One activity's acknowledgement in a batch: see `Provider.ackWorkItems`. */
export interface WorkItemAck {
  /** The token its fetch returned. */
  readonly lockToken: string;
  /** `ActivityCompleted` or `ActivityFailed` for its orchestration; `null` deletes it only. */
  readonly completion: WorkItem | null;
}

/** Whether one acknowledgement of a batch committed; a failed one carries its own error. */
export type WorkItemAckOutcome =
  | {
      /** It committed. */
      readonly ok: true;
    }
  | {
      /** It did not commit. */
      readonly ok: false;
      /** Why (`Worker queue item not found or already processed` when its lock is gone). */
      readonly error: ProviderError;
    };

/** What one turn commits: the arguments of `Provider.ackOrchestrationItem` after the lock token. */
export interface OrchestrationTurnCommit {
  /** The execution the turn ran (a new one after continue-as-new). */
  readonly executionId: number;
  /** The events the turn appends to the history. */
  readonly historyDelta: readonly Event[];
  /** Activities the turn schedules, for the worker queue. */
  readonly workerItems: readonly WorkItem[];
  /** Messages the turn sends to orchestrations (timers, children, parents, itself). */
  readonly orchestratorItems: readonly WorkItem[];
  /** The execution's status and output after the turn. */
  readonly metadata: ExecutionMetadata;
  /** Scheduled activities the turn no longer wants, to delete from the worker queue. */
  readonly cancelledActivities: readonly ScheduledActivityIdentifier[];
}

/** One turn's commit in `Provider.ackOrchestrationItems`. */
export interface OrchestrationItemAck extends OrchestrationTurnCommit {
  /** The token its fetch returned. */
  readonly lockToken: string;
}

/**
 * Whether one turn of `Provider.ackOrchestrationItems` committed; a failed one carries its own
 * error. A committed turn of a call made with an `ActivityClaim` carries the activities it
 * scheduled that were written claimed for the caller (none when the provider claimed none).
 */
export type OrchestrationItemAckOutcome =
  | {
      /** The turn committed. */
      readonly ok: true;
      /** The activities it scheduled that were written claimed for the caller, when any. */
      readonly claimedActivities?: readonly FetchedWorkItem[];
    }
  | {
      /** The turn did not commit. */
      readonly ok: false;
      /** Why (`Invalid lock token` when its lock is gone). */
      readonly error: ProviderError;
    };

/** Identity of a scheduled activity, for cancelling it when it lost a race or its execution ended. */
export interface ScheduledActivityIdentifier {
  /** The instance that scheduled the activity. */
  readonly instance: string;
  /** The execution that scheduled it. */
  readonly executionId: number;
  /** The event id of the `ActivityScheduled` event. */
  readonly activityId: number;
}
