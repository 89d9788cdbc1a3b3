/**
 * The JSON the dashboard's HTTP API answers with, shared by the server (which builds it from the
 * inspection reads) and the browser (which renders it). Times are epoch milliseconds; payloads
 * (inputs, outputs, event data, values) are the JSON text duroxide stores, never parsed into HTML.
 */

/** `GET api/session`: what the page needs before anything else. */
export interface SessionInfo {
  /** The schema the dashboard shows. */
  readonly schema: string;
  /** Whether the actions are enabled (`allowActions`). */
  readonly actionsEnabled: boolean;
  /** Sent back in the `x-duro-csrf` header of every action. */
  readonly csrfToken: string;
  /** Whether the schema has duro migration 11's listing indexes. */
  readonly listingIndexes: boolean;
  /** How often the queues are sampled for the plots, ms. */
  readonly sampleIntervalMs: number;
}

/** A count that stopped at its bound (`atLeast`) or is exact. */
export interface BoundedCountJson {
  /** The rows counted, at most the bound. */
  readonly count: number;
  /** Whether the count stopped at its bound, so there are at least `count`. */
  readonly atLeast: boolean;
}

/** `GET api/counts`. */
export interface StatusCountsJson {
  /** One count per status. */
  readonly counts: readonly {
    /** The status of the current executions counted. */
    readonly status: string;
    /** How many instances have it. */
    readonly count: number;
    /**
     * `exact`: counted; `estimate`: PostgreSQL's statistics estimate, above the count bound;
     * `atLeast`: the count stopped at its bound.
     */
    readonly precision: 'exact' | 'estimate' | 'atLeast';
  }[];
  /** When the counts were read. */
  readonly countedAtMs: number;
}

/** An instance of a list. */
export interface ListedInstanceJson {
  /** The instance id. */
  readonly instanceId: string;
  /** The orchestration the instance runs. */
  readonly orchestrationName: string;
  /** The orchestration version it was started with; `null` when none was recorded. */
  readonly orchestrationVersion: string | null;
  /** The status of its current execution. */
  readonly status: string;
  /** Its current execution, 1 for the first. */
  readonly executionId: number;
  /** The instance that started it as a sub-orchestration; `null` for a root. */
  readonly parentInstanceId: string | null;
  /** When the instance was created. */
  readonly createdAtMs: number;
  /** When its last turn committed. */
  readonly updatedAtMs: number;
}

/** `GET api/instances`. */
export interface InstancePageJson {
  /** The instances of the page, newest first. */
  readonly instances: readonly ListedInstanceJson[];
  /** The cursor of the next page (send it as `after`); `null` when no older instance matches. */
  readonly next: string | null;
  /**
   * Set when the read stopped at its bound before filling the page: the creation time it searched
   * back to.
   */
  readonly searchedBackToMs: number | null;
}

/** A node of the sub-orchestration tree. */
export interface TreeNodeJson {
  /** The instance id. */
  readonly instanceId: string;
  /** The orchestration the instance runs. */
  readonly orchestrationName: string;
  /** The status of its current execution; `null` before its first turn commits. */
  readonly status: string | null;
  /** When the instance was created. */
  readonly createdAtMs: number;
  /** The sub-orchestrations it started. */
  readonly children: readonly TreeNodeJson[];
}

/** One execution of an instance. */
export interface ExecutionJson {
  /** The execution's number, 1 for the first. */
  readonly executionId: number;
  /** How the execution stands: `Running`, `Completed`, `Failed`, `ContinuedAsNew`, ... */
  readonly status: string;
  /** When it started. */
  readonly startedAtMs: number;
  /** When it ended; `null` while it runs. */
  readonly completedAtMs: number | null;
  /** Events in its history. */
  readonly eventCount: number;
}

/** `GET api/instance?id=`: one instance. */
export interface InstanceDetailJson {
  /** The instance id. */
  readonly instanceId: string;
  /** The orchestration the instance runs. */
  readonly orchestrationName: string;
  /** The orchestration version of its current execution; `null` when none was recorded. */
  readonly orchestrationVersion: string | null;
  /** The status of its current execution; `null` when it has no execution row. */
  readonly status: string | null;
  /** The execution that runs now, or ran last. */
  readonly currentExecutionId: number;
  /** The instance that started it as a sub-orchestration; `null` for a root. */
  readonly parentInstanceId: string | null;
  /** When the instance was created. */
  readonly createdAtMs: number;
  /** When its last turn committed. */
  readonly updatedAtMs: number;
  /** The custom status the orchestration set last; `null` when it never set one. */
  readonly customStatus: string | null;
  /** How many times the custom status changed. */
  readonly customStatusVersion: number;
  /** The duroxide version the current execution is pinned to; `null` when none. */
  readonly pinnedDuroxideVersion: string | null;
  /** The current execution's input (JSON text), from its `OrchestrationStarted`. */
  readonly input: string | null;
  /** The output (JSON text) of a completed execution. */
  readonly output: string | null;
  /** How a failed execution failed. */
  readonly error: {
    /** The error's message. */
    readonly message: string;
    /** The error's details as duroxide records them (JSON text). */
    readonly details: string;
  } | null;
  /** The key/value store: key to value (JSON text). */
  readonly keyValues: Readonly<Record<string, string>>;
  /** Its executions, first ones first. */
  readonly executions: readonly ExecutionJson[];
  /** How many executions it has had; more than `executions.length` when the list was cut. */
  readonly executionCount: number;
  /** The sub-orchestration tree it belongs to, from its root; `null` when it cannot be read. */
  readonly tree: {
    /** The instance without a parent that the tree starts from. */
    readonly root: TreeNodeJson;
    /** Whether the tree had more nodes than were read. */
    readonly truncated: boolean;
  } | null;
  /** `duro why`: what keeps it from running now. */
  readonly why: {
    /** The answer in one line. */
    readonly verdict: string;
    /** The facts behind the verdict. */
    readonly findings: readonly {
      /**
       * `blocking`: it cannot run until someone acts; `waiting`: it will run once the time or work
       * named comes; `info`: context.
       */
      readonly severity: 'blocking' | 'waiting' | 'info';
      /** The finding in one sentence. */
      readonly text: string;
    }[];
  };
}

/** What a span of the timeline stands for. */
export type SpanKind = 'activity' | 'timer' | 'subOrchestration' | 'event' | 'queue';

/** Something that took time: from its scheduling event to the event that ended it. */
export interface TimelineSpanJson {
  /** What the span stands for. */
  readonly kind: SpanKind;
  /** The activity or orchestration name, the event or queue name, or `timer`. */
  readonly label: string;
  /** The id of the event that scheduled it. */
  readonly scheduledEventId: number;
  /** When it was scheduled. */
  readonly startMs: number;
  /** `null` while it has not ended. */
  readonly endMs: number | null;
  /** How it ended, or `pending` while it has not. */
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
  /** The turn's place in the execution, 1 for the first. */
  readonly index: number;
  /** When the turn committed. */
  readonly committedAtMs: number;
  /** The first event it wrote. */
  readonly firstEventId: number;
  /** The last event it wrote. */
  readonly lastEventId: number;
  /** What woke the orchestration for this turn (the first event's kind and name). */
  readonly trigger: string;
}

/** An event as the history table shows it. */
export interface TimelineEventJson {
  /** The event's id within its execution. */
  readonly eventId: number;
  /** The index of the turn that wrote it. */
  readonly turn: number;
  /** The event's variant (`ActivityScheduled`, `TimerFired`, ...). */
  readonly kind: string;
  /** The event it answers (a completion's scheduling event); `null` for none. */
  readonly sourceEventId: number | null;
  /** The time the event carries. */
  readonly timestampMs: number;
  /** When the turn that wrote it committed. */
  readonly committedAtMs: number;
  /** The event's fields as JSON text (payloads stay JSON text inside it). */
  readonly data: string;
}

/** `GET api/execution?id=&execution=`: the timeline and events of one execution. */
export interface ExecutionTimelineJson {
  /** The instance id. */
  readonly instanceId: string;
  /** The execution shown. */
  readonly executionId: number;
  /** The earliest time on the timeline. */
  readonly startMs: number;
  /** The latest time on the timeline (now, while a span has not ended). */
  readonly endMs: number;
  /** The turns, in commit order. */
  readonly turns: readonly TimelineTurnJson[];
  /**
   * The activities, timers, sub-orchestrations, event waits and queue reads, in scheduling order.
   */
  readonly spans: readonly TimelineSpanJson[];
  /** The events, in id order. */
  readonly events: readonly TimelineEventJson[];
  /** Events in the execution; more than `events.length` when the history was cut. */
  readonly eventCount: number;
}

/** One reading of the queue sampler. */
export interface QueueSampleJson {
  /** When the sample was taken. */
  readonly atMs: number;
  /** Orchestrator messages visible and not claimed. */
  readonly orchestratorReady: number;
  /** Orchestrator messages not visible yet (timers, delayed messages). */
  readonly orchestratorDelayed: number;
  /** Activities visible and not claimed. */
  readonly workerReady: number;
  /** Activities claimed with a lease that has not ended. */
  readonly workerRunning: number;
  /** Instance locks whose lease has not ended: turns in progress. */
  readonly locksHeld: number;
  /** Per second since the previous sample; `null` for the first sample or when unknown. */
  readonly instancesPerSecond: number | null;
  /** Messages sent to orchestrations per second. */
  readonly orchestratorMessagesPerSecond: number | null;
  /** Activities scheduled per second. */
  readonly activitiesScheduledPerSecond: number | null;
  /** Activities acknowledged per second. */
  readonly activitiesFinishedPerSecond: number | null;
  /** History events written per second. */
  readonly historyEventsPerSecond: number | null;
}

/** `GET api/queues`. */
export interface QueuesJson {
  /** The moment the overview judges visibility and leases by. */
  readonly nowMs: number;
  /** The orchestrator queue's messages by state. */
  readonly orchestratorQueue: {
    /** Visible and not claimed: waiting for a dispatcher. */
    readonly ready: BoundedCountJson;
    /** Not visible yet: timers, delayed messages, abandoned turns backing off. */
    readonly delayed: BoundedCountJson;
    /** Claimed with their instance by a turn. */
    readonly claimed: BoundedCountJson;
  };
  /** The worker queue's activities by state. */
  readonly workerQueue: {
    /** Visible and not claimed: waiting for a worker. */
    readonly ready: BoundedCountJson;
    /** Retries backing off. */
    readonly delayed: BoundedCountJson;
    /** Claimed with a lease that has not ended. */
    readonly running: BoundedCountJson;
    /** Claimed with a lease that ended: the next fetch takes them again. */
    readonly leaseExpired: BoundedCountJson;
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
    readonly count: BoundedCountJson;
    /** The ones due soonest. */
    readonly next: readonly {
      /** The instance the timer belongs to. */
      readonly instanceId: string;
      /** When it becomes due. */
      readonly dueAtMs: number;
    }[];
  };
  /** The rows of `instance_locks`. */
  readonly instanceLocks: {
    /** Locks whose lease has not ended: turns in progress. */
    readonly held: BoundedCountJson;
    /** Locks whose lease ended: the next fetch takes the instance over. */
    readonly expired: BoundedCountJson;
    /** The held locks taken longest ago. */
    readonly oldest: readonly {
      /** The locked instance. */
      readonly instanceId: string;
      /** The lock token of the turn that holds it. */
      readonly lockToken: string;
      /** When the lock was taken. */
      readonly lockedAtMs: number;
      /** When its lease ends. */
      readonly lockedUntilMs: number;
    }[];
  };
  /** The claimed activities whose lease ends first. */
  readonly claimedActivities: readonly {
    /** The instance that scheduled it; `null` when the row does not say. */
    readonly instanceId: string | null;
    /** The activity's id within its execution; `null` when the row does not say. */
    readonly activityId: number | null;
    /** The activity's name; `null` for an unreadable work item. */
    readonly activityName: string | null;
    /** When its lease ends. */
    readonly lockedUntilMs: number;
    /** Deliveries so far, this one included. */
    readonly attemptCount: number;
    /** The session it runs in; `null` for none. */
    readonly sessionId: string | null;
    /** Its tag; `null` for untagged. */
    readonly tag: string | null;
  }[];
  /** The activity sessions with an owner. */
  readonly sessions: {
    /** How many there are. */
    readonly count: BoundedCountJson;
    /** The ones whose ownership lapses first. */
    readonly owners: readonly {
      /** The session id. */
      readonly sessionId: string;
      /** The worker that owns the session. */
      readonly ownerId: string;
      /** When its ownership lapses unless renewed. */
      readonly lockedUntilMs: number;
      /** When an activity of the session last ran. */
      readonly lastActivityAtMs: number;
    }[];
  };
  /** The samples kept, oldest first. */
  readonly samples: readonly QueueSampleJson[];
  /** How often the queues are sampled, ms. */
  readonly sampleIntervalMs: number;
}

/** The actions the dashboard can take, by the path under `api/actions/`. */
export interface ActionRequests {
  /** `POST api/actions/raise-event`: raise an external event. */
  readonly 'raise-event': {
    /** The instance to raise it on. */
    readonly instanceId: string;
    /** The event's name. */
    readonly eventName: string;
    /** JSON text of the event data. */
    readonly data: string;
  };
  /** `POST api/actions/enqueue-event`: put a message on an instance's queue. */
  readonly 'enqueue-event': {
    /** The instance whose queue gets the message. */
    readonly instanceId: string;
    /** The queue's name. */
    readonly queueName: string;
    /** JSON text of the message. */
    readonly data: string;
  };
  /** `POST api/actions/cancel`: cancel an instance and its sub-orchestrations. */
  readonly cancel: {
    /** The instance to cancel. */
    readonly instanceId: string;
    /** Why, recorded with the cancellation. */
    readonly reason: string;
  };
  /** `POST api/actions/delete`: delete an instance and its sub-orchestrations. */
  readonly delete: {
    /** The root instance to delete. */
    readonly instanceId: string;
    /** Delete it even while it runs. */
    readonly force: boolean;
  };
  /** `POST api/actions/prune`: delete an instance's old executions. */
  readonly prune: {
    /** The instance to prune. */
    readonly instanceId: string;
    /** How many of its newest executions to keep, at least 1. */
    readonly keepLast: number;
  };
}

/** An action's name. */
export type ActionName = keyof ActionRequests;

/** What an action did, in one sentence. */
export interface ActionResultJson {
  /** What the action did. */
  readonly done: string;
}

/** The body of every refused request. */
export interface ErrorJson {
  /** What was wrong with the request. */
  readonly error: string;
}
