import { OrchestrationState } from './orchestration-state.js';
import type {
  ActivityTask,
  JoinResult,
  OutputOf,
  RaceResult,
  RetryPolicy,
  ScheduledTask,
} from './scheduled-task.js';
import { scheduledTask, typedTask } from './scheduled-task.js';
import { encodePayload } from '../../model/payload.js';
import { activityTask, requireDuration, requireString, validRetry } from './task-arguments.js';

/** Options of `scheduleActivity`. */
export interface ActivityOptions {
  /** Routes the activity to the worker that owns this session (session affinity). */
  readonly sessionId?: string;
}

/** The `all` result for a tuple of tasks. */
export type JoinResults<Tasks extends readonly ScheduledTask[]> = {
  -readonly [K in keyof Tasks]: JoinResult<OutputOf<Tasks[K]>>;
};

/** The `race` result for a tuple of tasks: the index and value of the winner. */
export type RaceResults<Tasks extends readonly ScheduledTask[]> = {
  [K in keyof Tasks & `${number}`]: RaceResult<OutputOf<Tasks[K]>> & {
    /** The position of the winning task among the arguments. */
    readonly index: K extends `${infer N extends number}` ? N : number;
  };
}[keyof Tasks & `${number}`];

/**
 * What an orchestration body receives, with duroxide-node's surface. Methods returning a task
 * descriptor schedule nothing until the descriptor is yielded; custom status, key-value and
 * trace methods take effect at once, and are recorded in history when they change state.
 *
 * @example
 * ```ts
 * runtime.registerOrchestration('Greet', function* (ctx, name: string) {
 *   const greeting: string = yield ctx.scheduleActivity<string>('Hello', name);
 *   const timeout = ctx.scheduleTimer(5_000);
 *   const reply = yield ctx.race(ctx.waitForEvent<string>('reply'), timeout);
 *   return { greeting, reply };
 * });
 * ```
 */
export class OrchestrationContext extends OrchestrationState {
  // ----- Activities -----

  /** An activity call; its input is sent as JSON. */
  scheduleActivity<T = unknown>(
    name: string,
    input?: unknown,
    options?: ActivityOptions,
  ): ActivityTask<T> {
    return activityTask<T>({
      type: 'activity',
      name: requireString('activity name', name),
      input: encodePayload(input),
      ...(options?.sessionId !== undefined
        ? { sessionId: requireString('sessionId', options.sessionId) }
        : {}),
    });
  }

  /** An activity call routed to the worker owning `sessionId`. */
  scheduleActivityOnSession<T = unknown>(
    name: string,
    input: unknown,
    sessionId: string,
  ): ActivityTask<T> {
    return this.scheduleActivity<T>(name, input, { sessionId });
  }

  /** An activity call retried on failure by `retry` (durable backoff timers between attempts). */
  scheduleActivityWithRetry<T = unknown>(
    name: string,
    input: unknown,
    retry: RetryPolicy,
  ): ScheduledTask<T> {
    return scheduledTask({
      type: 'activityWithRetry',
      name: requireString('activity name', name),
      input: encodePayload(input),
      retry: validRetry(retry),
    });
  }

  /** A retried activity call whose every attempt runs on `sessionId`. */
  scheduleActivityWithRetryOnSession<T = unknown>(
    name: string,
    input: unknown,
    retry: RetryPolicy,
    sessionId: string,
  ): ScheduledTask<T> {
    return scheduledTask({
      type: 'activityWithRetry',
      name: requireString('activity name', name),
      input: encodePayload(input),
      retry: validRetry(retry),
      sessionId: requireString('sessionId', sessionId),
    });
  }

  // ----- Timers and events -----

  /** A durable timer that fires `delayMs` milliseconds after it is first scheduled. */
  scheduleTimer(delayMs: number): ScheduledTask<null> {
    return scheduledTask({ type: 'timer', delayMs: requireDuration('delayMs', delayMs) });
  }

  /** The next external event raised with this name after the wait is scheduled (positional). */
  waitForEvent<T = unknown>(name: string): ScheduledTask<T> {
    return scheduledTask({ type: 'waitEvent', name: requireString('event name', name) });
  }

  /** The next message of a FIFO queue; messages wait for a dequeue and survive continue-as-new. */
  dequeueEvent<T = unknown>(queueName: string): ScheduledTask<T> {
    return scheduledTask({
      type: 'dequeueEvent',
      queueName: requireString('queue name', queueName),
    });
  }

  /** Reads a key of another instance's key-value store (recorded, so replay returns the same). */
  getValueFromInstance(instanceId: string, key: string): ScheduledTask<string | null> {
    return scheduledTask({
      type: 'getValueFromInstance',
      instanceId: requireString('instanceId', instanceId),
      key: requireString('key', key),
    });
  }

  // ----- Sub-orchestrations and detached starts -----

  /** A child orchestration with a generated id (`{parent}::sub::{eventId}`). */
  scheduleSubOrchestration<T = unknown>(name: string, input?: unknown): ScheduledTask<T> {
    return scheduledTask({
      type: 'subOrchestration',
      name: requireString('orchestration name', name),
      input: encodePayload(input),
    });
  }

  /** A child orchestration with an explicit instance id (used as is). */
  scheduleSubOrchestrationWithId<T = unknown>(
    name: string,
    instanceId: string,
    input?: unknown,
  ): ScheduledTask<T> {
    return scheduledTask({
      type: 'subOrchestrationWithId',
      name: requireString('orchestration name', name),
      instanceId: requireString('instanceId', instanceId),
      input: encodePayload(input),
    });
  }

  /** A child orchestration of a given version (`null`: the registry's policy decides). */
  scheduleSubOrchestrationVersioned<T = unknown>(
    name: string,
    version: string | null,
    input?: unknown,
  ): ScheduledTask<T> {
    return scheduledTask({
      type: 'subOrchestrationVersioned',
      name: requireString('orchestration name', name),
      version,
      input: encodePayload(input),
    });
  }

  /** A versioned child orchestration with an explicit instance id. */
  scheduleSubOrchestrationVersionedWithId<T = unknown>(
    name: string,
    version: string | null,
    instanceId: string,
    input?: unknown,
  ): ScheduledTask<T> {
    return scheduledTask({
      type: 'subOrchestrationVersionedWithId',
      name: requireString('orchestration name', name),
      version,
      instanceId: requireString('instanceId', instanceId),
      input: encodePayload(input),
    });
  }

  /** Starts an independent orchestration (fire and forget); resolves to `null` at once. */
  startOrchestration(name: string, instanceId: string, input?: unknown): ScheduledTask<null> {
    return scheduledTask({
      type: 'orchestration',
      name: requireString('orchestration name', name),
      instanceId: requireString('instanceId', instanceId),
      input: encodePayload(input),
    });
  }

  /** Starts an independent orchestration of a given version (`null`: latest). */
  startOrchestrationVersioned(
    name: string,
    version: string | null,
    instanceId: string,
    input?: unknown,
  ): ScheduledTask<null> {
    return scheduledTask({
      type: 'orchestrationVersioned',
      name: requireString('orchestration name', name),
      version,
      instanceId: requireString('instanceId', instanceId),
      input: encodePayload(input),
    });
  }

  // ----- Deterministic helpers -----

  /** A random UUID v4, recorded in history (a built-in activity). */
  newGuid(): ScheduledTask<string> {
    return scheduledTask({ type: 'newGuid' });
  }

  /** The current time in epoch milliseconds, recorded in history (a built-in activity). */
  utcNow(): ScheduledTask<number> {
    return scheduledTask({ type: 'utcNow' });
  }

  /**
   * Ends this execution and starts the next one with `input`; the yield never returns. Yield it
   * on its own: inside `all` or `race` it does nothing and fails with
   * `unsupported task in join/select`, as in duroxide-node.
   */
  continueAsNew(input?: unknown): ScheduledTask<never> {
    return scheduledTask({ type: 'continueAsNew', input: encodePayload(input) });
  }

  /** Continue-as-new into a given orchestration version; yielded on its own, as `continueAsNew`. */
  continueAsNewVersioned(input: unknown, version: string): ScheduledTask<never> {
    return scheduledTask({
      type: 'continueAsNewVersioned',
      input: encodePayload(input),
      version: requireString('version', version),
    });
  }

  // ----- Composition -----

  /** Waits for every task; each entry is `{ ok: value }` or `{ err: message }`, in input order. */
  all<const Tasks extends readonly ScheduledTask[]>(
    tasks: Tasks,
  ): ScheduledTask<JoinResults<Tasks>> {
    return scheduledTask({ type: 'join', tasks: [...tasks] });
  }

  /**
   * The first task to finish (ties go to the earlier argument); the others are cancelled.
   * duroxide-node takes exactly two tasks; any number is accepted here.
   */
  race<const Tasks extends readonly ScheduledTask[]>(
    ...tasks: Tasks
  ): ScheduledTask<RaceResults<Tasks>> {
    if (tasks.length === 0) throw new TypeError('race needs at least one task');
    return scheduledTask({ type: 'select', tasks: [...tasks] });
  }

  // ----- Typed variants (string results are parsed as JSON once more) -----

  /** `scheduleActivity`, whose string results are parsed as JSON once more (duroxide-node's typed variant). */
  scheduleActivityTyped<T = unknown>(
    name: string,
    input?: unknown,
    options?: ActivityOptions,
  ): ActivityTask<T> {
    const {
      type,
      name: activity,
      input: encoded,
      sessionId,
    } = this.scheduleActivity<T>(name, input, options);
    return activityTask<T>({
      type,
      name: activity,
      input: encoded,
      ...(sessionId !== undefined ? { sessionId } : {}),
      _typed: true,
    });
  }

  /** `scheduleActivityOnSession`, whose string results are parsed as JSON once more (duroxide-node's typed variant). */
  scheduleActivityOnSessionTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleActivityOnSession']>
  ): ActivityTask<T> {
    return this.scheduleActivityTyped<T>(args[0], args[1], { sessionId: args[2] });
  }

  /** `scheduleActivityWithRetry`, whose string results are parsed as JSON once more (duroxide-node's typed variant). */
  scheduleActivityWithRetryTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleActivityWithRetry']>
  ): ScheduledTask<T> {
    return typedTask(this.scheduleActivityWithRetry<T>(...args));
  }

  /** `scheduleActivityWithRetryOnSession`, whose string results are parsed as JSON once more (duroxide-node's typed variant). */
  scheduleActivityWithRetryOnSessionTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleActivityWithRetryOnSession']>
  ): ScheduledTask<T> {
    return typedTask(this.scheduleActivityWithRetryOnSession<T>(...args));
  }

  /** `waitForEvent`, whose string results are parsed as JSON once more (duroxide-node's typed variant). */
  waitForEventTyped<T = unknown>(name: string): ScheduledTask<T> {
    return typedTask(this.waitForEvent<T>(name));
  }

  /** `dequeueEvent`, whose string results are parsed as JSON once more (duroxide-node's typed variant). */
  dequeueEventTyped<T = unknown>(queueName: string): ScheduledTask<T> {
    return typedTask(this.dequeueEvent<T>(queueName));
  }

  /** `scheduleSubOrchestration`, whose string results are parsed as JSON once more (duroxide-node's typed variant). */
  scheduleSubOrchestrationTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleSubOrchestration']>
  ): ScheduledTask<T> {
    return typedTask(this.scheduleSubOrchestration<T>(...args));
  }

  /** `scheduleSubOrchestrationWithId`, whose string results are parsed as JSON once more (duroxide-node's typed variant). */
  scheduleSubOrchestrationWithIdTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleSubOrchestrationWithId']>
  ): ScheduledTask<T> {
    return typedTask(this.scheduleSubOrchestrationWithId<T>(...args));
  }

  /** `all`, whose string entries are parsed as JSON once more (duroxide-node's typed variant). */
  allTyped<const Tasks extends readonly ScheduledTask[]>(
    tasks: Tasks,
  ): ScheduledTask<JoinResults<Tasks>> {
    return scheduledTask({ type: 'join', tasks: [...tasks], _typed: true });
  }

  /** `race`, whose string winner is parsed as JSON once more (duroxide-node's typed variant). */
  raceTyped<const Tasks extends readonly ScheduledTask[]>(
    ...tasks: Tasks
  ): ScheduledTask<RaceResults<Tasks>> {
    return typedTask(this.race(...tasks));
  }

  /** The same as `startOrchestration` (duroxide-node's typed alias). */
  startOrchestrationTyped(name: string, instanceId: string, input?: unknown): ScheduledTask<null> {
    return this.startOrchestration(name, instanceId, input);
  }

  /** The same as `startOrchestrationVersioned` (duroxide-node's typed alias). */
  startOrchestrationVersionedTyped(
    name: string,
    version: string | null,
    instanceId: string,
    input?: unknown,
  ): ScheduledTask<null> {
    return this.startOrchestrationVersioned(name, version, instanceId, input);
  }

  /** The same as `continueAsNew` (duroxide-node's typed alias). */
  continueAsNewTyped(input?: unknown): ScheduledTask<never> {
    return this.continueAsNew(input);
  }
}
