/**
 * The task descriptors an orchestration yields, in the JSON shape duroxide-node uses (its
 * `ScheduledTask`). A descriptor is inert: creating one schedules nothing. The runtime schedules
 * the work when the orchestration yields it, so yield order is the order in history.
 *
 * `T` is the value the task resolves to. `yield task` evaluates to `any`, as in duroxide-node
 * (TypeScript gives every `yield` of a generator one type); `yield* task` evaluates to `T`,
 * because every descriptor is also iterable: it yields itself once and returns what it receives.
 */
export type ScheduledTask<T = unknown> = ScheduledTaskBody & TaskOutput<T>;

/** The typing side of a descriptor: what it resolves to, and `yield*` support. */
export interface TaskOutput<T> {
  /** @internal phantom, never present at run time */
  readonly __output?: () => T;
  /** `yield* task` yields the task and evaluates to its result. Not enumerable. */
  [Symbol.iterator](): Generator<ScheduledTask<T>, T, unknown>;
}

function* delegate<T>(this: ScheduledTask<T>): Generator<ScheduledTask<T>, T, unknown> {
  return (yield this) as T;
}

/**
 * Makes a descriptor from its JSON body: adds the non-enumerable `yield*` support.
 * @internal
 */
export function scheduledTask<T>(body: ScheduledTaskBody): ScheduledTask<T> {
  // Spreading a descriptor drops the non-enumerable iterator; this puts it back.
  return Object.defineProperty(body, Symbol.iterator, {
    value: delegate,
    enumerable: false,
  }) as ScheduledTask<T>;
}

/** Backoff between retry attempts, as duroxide-node's string forms. */
export type RetryBackoff = 'exponential' | 'fixed' | 'linear' | (string & {});

/**
 * How `scheduleActivityWithRetry` retries, as duroxide-node's `RetryPolicy`. duroxide-node's
 * typings declare `backoff` as a number and `timeoutMs` as required; its runtime takes a string
 * and an optional timeout, which is what is typed here.
 */
export interface RetryPolicy {
  /** Attempts including the first; at least 1. */
  readonly maxAttempts: number;
  /** Per-attempt timeout in milliseconds; a timed-out attempt is not retried. */
  readonly timeoutMs?: number;
  /** Accepted as duroxide-node's alias of `timeoutMs`. */
  readonly totalTimeoutMs?: number;
  /**
   * `"exponential"` (100 ms doubling, capped at 30 s), `"fixed"` (1 s), any other string:
   * linear (100 ms per attempt, capped at 30 s). Absent: duroxide's default (exponential).
   */
  readonly backoff?: RetryBackoff;
}

/** The descriptor variants, each tagged by `type` as in duroxide-node. */
export type ScheduledTaskBody =
  | {
      readonly type: 'activity';
      readonly name: string;
      /** The input as JSON text. */
      readonly input: string;
      readonly sessionId?: string;
      readonly tag?: string;
      readonly _typed?: boolean;
    }
  | {
      readonly type: 'activityWithRetry';
      readonly name: string;
      readonly input: string;
      readonly retry: RetryPolicy;
      readonly sessionId?: string;
      readonly _typed?: boolean;
    }
  | { readonly type: 'timer'; readonly delayMs: number }
  | { readonly type: 'waitEvent'; readonly name: string; readonly _typed?: boolean }
  | { readonly type: 'dequeueEvent'; readonly queueName: string; readonly _typed?: boolean }
  | {
      readonly type: 'subOrchestration';
      readonly name: string;
      readonly input: string;
      readonly _typed?: boolean;
    }
  | {
      readonly type: 'subOrchestrationWithId';
      readonly name: string;
      readonly instanceId: string;
      readonly input: string;
      readonly _typed?: boolean;
    }
  | {
      readonly type: 'subOrchestrationVersioned';
      readonly name: string;
      readonly version: string | null;
      readonly input: string;
      readonly _typed?: boolean;
    }
  | {
      readonly type: 'subOrchestrationVersionedWithId';
      readonly name: string;
      readonly version: string | null;
      readonly instanceId: string;
      readonly input: string;
      readonly _typed?: boolean;
    }
  | {
      readonly type: 'orchestration';
      readonly name: string;
      readonly instanceId: string;
      readonly input: string;
    }
  | {
      readonly type: 'orchestrationVersioned';
      readonly name: string;
      readonly version: string | null;
      readonly instanceId: string;
      readonly input: string;
    }
  | { readonly type: 'newGuid' }
  | { readonly type: 'utcNow' }
  | { readonly type: 'continueAsNew'; readonly input: string }
  | { readonly type: 'continueAsNewVersioned'; readonly input: string; readonly version: string }
  | { readonly type: 'getValueFromInstance'; readonly instanceId: string; readonly key: string }
  | {
      readonly type: 'join';
      readonly tasks: readonly ScheduledTask[];
      readonly _typed?: boolean;
    }
  | {
      readonly type: 'select';
      readonly tasks: readonly ScheduledTask[];
      readonly _typed?: boolean;
    };

/** The `type` names of the descriptor variants. */
export type ScheduledTaskType = ScheduledTaskBody['type'];

/** The JSON body of an activity descriptor. */
export type ActivityTaskBody = Extract<ScheduledTaskBody, { type: 'activity' }>;

/** An activity descriptor; `.withTag()` routes it to workers subscribed to that tag. */
export type ActivityTask<T = unknown> = ActivityTaskBody &
  TaskOutput<T> & {
    /**
     * Routes this descriptor to workers subscribed to `tag` (duroxide's `with_tag`) and returns
     * it: `d.withTag('gpu') === d`, as in duroxide-node.
     * @throws {TypeError} when `tag` is not a string.
     */
    readonly withTag: (tag: string) => ActivityTask<T>;
  };

/** One entry of an `all` result: the value, or the error text of a failed task. */
export interface JoinResult<T = unknown> {
  /** The task's value, when it succeeded. */
  readonly ok?: T;
  /** The task's error text, when it failed. */
  readonly err?: string;
}

/**
 * A `race` result: the index of the first task to finish and its value. As in duroxide-node,
 * when the winning task failed, `value` is its error text.
 */
export interface RaceResult<T = unknown> {
  /** The position of the winning task among the arguments. */
  readonly index: number;
  /** The winner's value (its error text when it failed). */
  readonly value: T;
}

/** The value type a task descriptor resolves to. */
export type OutputOf<Task> = Task extends TaskOutput<infer T> ? T : unknown;

/** Whether a value looks like a task descriptor. */
export function isScheduledTask(value: unknown): value is ScheduledTask {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}

/**
 * The same descriptor marked typed: string results are parsed as JSON once more.
 * @internal
 */
export function typedTask<T>(task: ScheduledTask<T>): ScheduledTask<T> {
  return scheduledTask<T>({ ...task, _typed: true } as ScheduledTaskBody);
}
