import type { Event } from '../model/event.js';
import type { WorkItem } from '../model/work-item.js';
import type { ExecutionMetadata } from './execution-metadata.js';
import type { ProviderError } from './provider-error.js';

/** One committed key-value entry of an instance. */
export interface KvEntry {
  readonly value: string;
  /** When the runtime last set the key, in epoch milliseconds. */
  readonly lastUpdatedAtMs: number;
}

/**
 * A locked batch of work for one instance, as duroxide's `OrchestrationItem`: everything a turn
 * needs. Nobody else can change the instance until the batch is acknowledged or abandoned.
 */
export interface OrchestrationItem {
  readonly instance: string;
  readonly orchestrationName: string;
  /** The current execution (1, then one more per continue-as-new). */
  readonly executionId: number;
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
  readonly item: OrchestrationItem;
  /** Token that acknowledges, abandons or renews this batch. */
  readonly lockToken: string;
  /** The highest delivery attempt among the batch's messages, counting this one. */
  readonly attemptCount: number;
}

/** A fetched activity with its lock. */
export interface FetchedWorkItem {
  readonly item: WorkItem;
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
  { readonly ok: true } | { readonly ok: false; readonly error: ProviderError };

/** What one turn commits: the arguments of `Provider.ackOrchestrationItem` after the lock token. */
export interface OrchestrationTurnCommit {
  readonly executionId: number;
  readonly historyDelta: readonly Event[];
  readonly workerItems: readonly WorkItem[];
  readonly orchestratorItems: readonly WorkItem[];
  readonly metadata: ExecutionMetadata;
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
  | { readonly ok: true; readonly claimedActivities?: readonly FetchedWorkItem[] }
  | { readonly ok: false; readonly error: ProviderError };

/** Identity of a scheduled activity, for cancelling it when it lost a race or its execution ended. */
export interface ScheduledActivityIdentifier {
  readonly instance: string;
  readonly executionId: number;
  /** The event id of the `ActivityScheduled` event. */
  readonly activityId: number;
}
