/**
 * The JSON the dashboard's HTTP API answers with, shared by the server (which builds it from the
 * inspection reads) and the browser (which renders it). Times are epoch milliseconds; payloads
 * (inputs, outputs, event data, values) are the JSON text duroxide stores, never parsed into HTML.
 */

/** `GET api/session`: what the page needs before anything else. */
export interface SessionInfo {
  readonly schema: string;
  readonly actionsEnabled: boolean;
  /** Sent back in the `x-duro-csrf` header of every action. */
  readonly csrfToken: string;
  /** Whether the schema has duro migration 11's listing indexes. */
  readonly listingIndexes: boolean;
  readonly sampleIntervalMs: number;
}

/** A count that stopped at its bound (`atLeast`) or is exact. */
export interface BoundedCountJson {
  readonly count: number;
  readonly atLeast: boolean;
}

/** `GET api/counts`. */
export interface StatusCountsJson {
  readonly counts: readonly {
    readonly status: string;
    readonly count: number;
    readonly precision: 'exact' | 'estimate' | 'atLeast';
  }[];
  readonly countedAtMs: number;
}

/** An instance of a list. */
export interface ListedInstanceJson {
  readonly instanceId: string;
  readonly orchestrationName: string;
  readonly orchestrationVersion: string | null;
  readonly status: string;
  readonly executionId: number;
  readonly parentInstanceId: string | null;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

/** `GET api/instances`. */
export interface InstancePageJson {
  readonly instances: readonly ListedInstanceJson[];
  readonly next: string | null;
  readonly searchedBackToMs: number | null;
}

/** A node of the sub-orchestration tree. */
export interface TreeNodeJson {
  readonly instanceId: string;
  readonly orchestrationName: string;
  readonly status: string | null;
  readonly createdAtMs: number;
  readonly children: readonly TreeNodeJson[];
}

/** One execution of an instance. */
export interface ExecutionJson {
  readonly executionId: number;
  readonly status: string;
  readonly startedAtMs: number;
  readonly completedAtMs: number | null;
  readonly eventCount: number;
}

/** `GET api/instance?id=`: one instance. */
export interface InstanceDetailJson {
  readonly instanceId: string;
  readonly orchestrationName: string;
  readonly orchestrationVersion: string | null;
  readonly status: string | null;
  readonly currentExecutionId: number;
  readonly parentInstanceId: string | null;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly customStatus: string | null;
  readonly customStatusVersion: number;
  readonly pinnedDuroxideVersion: string | null;
  /** The current execution's input (JSON text), from its `OrchestrationStarted`. */
  readonly input: string | null;
  /** The output (JSON text) of a completed execution. */
  readonly output: string | null;
  /** How a failed execution failed. */
  readonly error: { readonly message: string; readonly details: string } | null;
  /** The key/value store: key to value (JSON text). */
  readonly keyValues: Readonly<Record<string, string>>;
  readonly executions: readonly ExecutionJson[];
  readonly executionCount: number;
  readonly tree: { readonly root: TreeNodeJson; readonly truncated: boolean } | null;
  /** `duro why`: what keeps it from running now. */
  readonly why: {
    readonly verdict: string;
    readonly findings: readonly {
      readonly severity: 'blocking' | 'waiting' | 'info';
      readonly text: string;
    }[];
  };
}

/** What a span of the timeline stands for. */
export type SpanKind = 'activity' | 'timer' | 'subOrchestration' | 'event' | 'queue';

/** Something that took time: from its scheduling event to the event that ended it. */
export interface TimelineSpanJson {
  readonly kind: SpanKind;
  /** The activity or orchestration name, the event or queue name, or `timer`. */
  readonly label: string;
  readonly scheduledEventId: number;
  readonly startMs: number;
  /** `null` while it has not ended. */
  readonly endMs: number | null;
  readonly outcome: 'completed' | 'failed' | 'cancelled' | 'pending';
  /** For an activity, its place in a retry sequence (1 for the first try). */
  readonly attempt: number;
  /** A short description: session and tag of an activity, due time of a timer, child instance. */
  readonly detail: string | null;
  /** The child of a sub-orchestration (its full instance id). */
  readonly childInstanceId: string | null;
}

/** A turn: the events one acknowledgement committed. */
export interface TimelineTurnJson {
  readonly index: number;
  readonly committedAtMs: number;
  readonly firstEventId: number;
  readonly lastEventId: number;
  /** What woke the orchestration for this turn (the first event's kind and name). */
  readonly trigger: string;
}

/** An event as the history table shows it. */
export interface TimelineEventJson {
  readonly eventId: number;
  readonly turn: number;
  readonly kind: string;
  readonly sourceEventId: number | null;
  readonly timestampMs: number;
  readonly committedAtMs: number;
  /** The event's fields as JSON text (payloads stay JSON text inside it). */
  readonly data: string;
}

/** `GET api/execution?id=&execution=`: the timeline and events of one execution. */
export interface ExecutionTimelineJson {
  readonly instanceId: string;
  readonly executionId: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly turns: readonly TimelineTurnJson[];
  readonly spans: readonly TimelineSpanJson[];
  readonly events: readonly TimelineEventJson[];
  /** Events in the execution; more than `events.length` when the history was cut. */
  readonly eventCount: number;
}

/** One reading of the queue sampler. */
export interface QueueSampleJson {
  readonly atMs: number;
  readonly orchestratorReady: number;
  readonly orchestratorDelayed: number;
  readonly workerReady: number;
  readonly workerRunning: number;
  readonly locksHeld: number;
  /** Per second since the previous sample; `null` for the first sample or when unknown. */
  readonly instancesPerSecond: number | null;
  readonly orchestratorMessagesPerSecond: number | null;
  readonly activitiesScheduledPerSecond: number | null;
  readonly activitiesFinishedPerSecond: number | null;
  readonly historyEventsPerSecond: number | null;
}

/** `GET api/queues`. */
export interface QueuesJson {
  readonly nowMs: number;
  readonly orchestratorQueue: {
    readonly ready: BoundedCountJson;
    readonly delayed: BoundedCountJson;
    readonly claimed: BoundedCountJson;
  };
  readonly workerQueue: {
    readonly ready: BoundedCountJson;
    readonly delayed: BoundedCountJson;
    readonly running: BoundedCountJson;
    readonly leaseExpired: BoundedCountJson;
    readonly readyByTag: readonly { readonly tag: string | null; readonly count: number }[];
  };
  readonly dueTimers: {
    readonly count: BoundedCountJson;
    readonly next: readonly { readonly instanceId: string; readonly dueAtMs: number }[];
  };
  readonly instanceLocks: {
    readonly held: BoundedCountJson;
    readonly expired: BoundedCountJson;
    readonly oldest: readonly {
      readonly instanceId: string;
      readonly lockToken: string;
      readonly lockedAtMs: number;
      readonly lockedUntilMs: number;
    }[];
  };
  readonly claimedActivities: readonly {
    readonly instanceId: string | null;
    readonly activityId: number | null;
    readonly activityName: string | null;
    readonly lockedUntilMs: number;
    readonly attemptCount: number;
    readonly sessionId: string | null;
    readonly tag: string | null;
  }[];
  readonly sessions: {
    readonly count: BoundedCountJson;
    readonly owners: readonly {
      readonly sessionId: string;
      readonly ownerId: string;
      readonly lockedUntilMs: number;
      readonly lastActivityAtMs: number;
    }[];
  };
  readonly samples: readonly QueueSampleJson[];
  readonly sampleIntervalMs: number;
}

/** The actions the dashboard can take, by the path under `api/actions/`. */
export interface ActionRequests {
  readonly 'raise-event': {
    readonly instanceId: string;
    readonly eventName: string;
    /** JSON text of the event data. */
    readonly data: string;
  };
  readonly 'enqueue-event': {
    readonly instanceId: string;
    readonly queueName: string;
    readonly data: string;
  };
  readonly cancel: { readonly instanceId: string; readonly reason: string };
  readonly delete: { readonly instanceId: string; readonly force: boolean };
  readonly prune: { readonly instanceId: string; readonly keepLast: number };
}

/** An action's name. */
export type ActionName = keyof ActionRequests;

/** What an action did, in one sentence. */
export interface ActionResultJson {
  readonly done: string;
}

/** The body of every refused request. */
export interface ErrorJson {
  readonly error: string;
}
