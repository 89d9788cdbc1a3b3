import type { Logger } from '../logger.js';
import type { ReplayState } from './replay-state.js';
import type {
  ActivityTask,
  ActivityTaskBody,
  JoinResult,
  OutputOf,
  RaceResult,
  RetryPolicy,
  ScheduledTask,
} from './scheduled-task.js';
import { scheduledTask, typedTask } from './scheduled-task.js';

/** Options of `scheduleActivity`. */
export interface ActivityOptions {
  /** Routes the activity to the worker that owns this session (session affinity). */
  readonly sessionId?: string;
}

/** What an orchestration knows about itself. */
export interface OrchestrationInfo {
  readonly instanceId: string;
  /** 1 for the first execution, one more after each continue-as-new. */
  readonly executionId: number;
  readonly orchestrationName: string;
  readonly orchestrationVersion: string;
}

/** The `all` result for a tuple of tasks. */
export type JoinResults<Tasks extends readonly ScheduledTask[]> = {
  -readonly [K in keyof Tasks]: JoinResult<OutputOf<Tasks[K]>>;
};

/** The `race` result for a tuple of tasks: the index and value of the winner. */
export type RaceResults<Tasks extends readonly ScheduledTask[]> = {
  [K in keyof Tasks & `${number}`]: RaceResult<OutputOf<Tasks[K]>> & {
    readonly index: K extends `${infer N extends number}` ? N : number;
  };
}[keyof Tasks & `${number}`];

/**
 * Encodes a task input the way duroxide-node does: JSON text, with `undefined` as `null`.
 * @throws {TypeError} when the value cannot be written as JSON (a `BigInt`, a cycle).
 */
export function encodePayload(value: unknown): string {
  const text = JSON.stringify(value === undefined ? null : value) as string | undefined;
  if (text === undefined) throw new TypeError(`cannot encode ${typeof value} as JSON`);
  return text;
}

function requireString(what: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new TypeError(`${what} must be a string, got ${value === null ? 'null' : typeof value}`);
  }
  return value;
}

function requireDuration(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(
      `${what} must be a finite number of milliseconds >= 0, got ${String(value)}`,
    );
  }
  return value;
}

function activityTask<T>(body: ActivityTaskBody): ActivityTask<T> {
  const task = scheduledTask<T>({ ...body });
  // Like duroxide-node, `withTag` is not part of the descriptor's JSON.
  return Object.defineProperty(task, 'withTag', {
    value: (tag: string) => activityTask<T>({ ...body, tag: requireString('tag', tag) }),
    enumerable: false,
  }) as ActivityTask<T>;
}

function validRetry(retry: RetryPolicy): RetryPolicy {
  if (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1) {
    throw new TypeError(
      `retry.maxAttempts must be an integer >= 1, got ${String(retry.maxAttempts)}`,
    );
  }
  if (retry.timeoutMs !== undefined) requireDuration('retry.timeoutMs', retry.timeoutMs);
  if (retry.totalTimeoutMs !== undefined)
    requireDuration('retry.totalTimeoutMs', retry.totalTimeoutMs);
  return retry;
}

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
export class OrchestrationContext implements OrchestrationInfo {
  readonly instanceId: string;
  readonly executionId: number;
  readonly orchestrationName: string;
  readonly orchestrationVersion: string;

  /** @internal */
  constructor(
    info: OrchestrationInfo,
    private readonly state: ReplayState,
    private readonly logger: Logger,
    private readonly nowMs: () => number,
  ) {
    this.instanceId = info.instanceId;
    this.executionId = info.executionId;
    this.orchestrationName = info.orchestrationName;
    this.orchestrationVersion = info.orchestrationVersion;
  }

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

  /** Ends this execution and starts the next one with `input`; the yield never returns. */
  continueAsNew(input?: unknown): ScheduledTask<never> {
    return scheduledTask({ type: 'continueAsNew', input: encodePayload(input) });
  }

  /** Continue-as-new into a given orchestration version. */
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

  scheduleActivityOnSessionTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleActivityOnSession']>
  ): ActivityTask<T> {
    return this.scheduleActivityTyped<T>(args[0], args[1], { sessionId: args[2] });
  }

  scheduleActivityWithRetryTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleActivityWithRetry']>
  ): ScheduledTask<T> {
    return typedTask(this.scheduleActivityWithRetry<T>(...args));
  }

  scheduleActivityWithRetryOnSessionTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleActivityWithRetryOnSession']>
  ): ScheduledTask<T> {
    return typedTask(this.scheduleActivityWithRetryOnSession<T>(...args));
  }

  waitForEventTyped<T = unknown>(name: string): ScheduledTask<T> {
    return typedTask(this.waitForEvent<T>(name));
  }

  dequeueEventTyped<T = unknown>(queueName: string): ScheduledTask<T> {
    return typedTask(this.dequeueEvent<T>(queueName));
  }

  scheduleSubOrchestrationTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleSubOrchestration']>
  ): ScheduledTask<T> {
    return typedTask(this.scheduleSubOrchestration<T>(...args));
  }

  scheduleSubOrchestrationWithIdTyped<T = unknown>(
    ...args: Parameters<OrchestrationContext['scheduleSubOrchestrationWithId']>
  ): ScheduledTask<T> {
    return typedTask(this.scheduleSubOrchestrationWithId<T>(...args));
  }

  allTyped<const Tasks extends readonly ScheduledTask[]>(
    tasks: Tasks,
  ): ScheduledTask<JoinResults<Tasks>> {
    return scheduledTask({ type: 'join', tasks: [...tasks], _typed: true });
  }

  raceTyped<const Tasks extends readonly ScheduledTask[]>(
    ...tasks: Tasks
  ): ScheduledTask<RaceResults<Tasks>> {
    return typedTask(this.race(...tasks));
  }

  startOrchestrationTyped(name: string, instanceId: string, input?: unknown): ScheduledTask<null> {
    return this.startOrchestration(name, instanceId, input);
  }

  startOrchestrationVersionedTyped(
    name: string,
    version: string | null,
    instanceId: string,
    input?: unknown,
  ): ScheduledTask<null> {
    return this.startOrchestrationVersioned(name, version, instanceId, input);
  }

  continueAsNewTyped(input?: unknown): ScheduledTask<never> {
    return this.continueAsNew(input);
  }

  // ----- Custom status (recorded as CustomStatusUpdated) -----

  /** Sets the custom status clients see (`waitForStatusChange`, `getStatus`). */
  setCustomStatus(status: string): void {
    const value = requireString('custom status', status);
    this.state.customStatus = value;
    this.state.emit({ type: 'UpdateCustomStatus', status: value });
  }

  /** Clears the custom status. */
  resetCustomStatus(): void {
    this.state.customStatus = null;
    this.state.emit({ type: 'UpdateCustomStatus', status: null });
  }

  /** The custom status as set so far, including one carried over by continue-as-new. */
  getCustomStatus(): string | null {
    return this.state.customStatus;
  }

  // ----- Key-value store (recorded as KeyValueSet / KeyValueCleared / KeyValuesCleared) -----

  /** Sets a key of this instance's key-value store. */
  setValue(key: string, value: string): void {
    const k = requireString('key', key);
    const v = requireString('value', value);
    const now = this.nowMs();
    this.state.kvValues.set(k, v);
    this.state.kvUpdatedAt.set(k, now);
    this.state.emit({ type: 'SetKeyValue', key: k, value: v, lastUpdatedAtMs: now });
  }

  /** A key's value, or `null`. */
  getValue(key: string): string | null {
    return this.state.kvValues.get(key) ?? null;
  }

  /** Removes a key. */
  clearValue(key: string): void {
    const k = requireString('key', key);
    this.state.kvValues.delete(k);
    this.state.kvUpdatedAt.delete(k);
    this.state.emit({ type: 'ClearKeyValue', key: k });
  }

  /** Removes every key. */
  clearAllValues(): void {
    this.state.kvValues.clear();
    this.state.kvUpdatedAt.clear();
    this.state.emit({ type: 'ClearKeyValues' });
  }

  /** Every key and value, keys in sorted order. */
  getKvAllValues(): Record<string, string> {
    const all: Record<string, string> = {};
    for (const key of this.getKvAllKeys()) all[key] = this.state.kvValues.get(key) ?? '';
    return all;
  }

  /** Every key, sorted. */
  getKvAllKeys(): string[] {
    return [...this.state.kvValues.keys()].sort();
  }

  getKvLength(): number {
    return this.state.kvValues.size;
  }

  /**
   * Clears the keys last updated before `cutoffMs` (epoch milliseconds) in an earlier turn;
   * keys written in this turn are kept. Returns how many keys were cleared.
   */
  pruneKvValuesUpdatedBefore(cutoffMs: number): number {
    const keys = [...this.state.kvUpdatedAt]
      .filter(([key, updatedAt]) => updatedAt < cutoffMs && this.state.kvValues.has(key))
      .map(([key]) => key)
      .sort();
    for (const key of keys) this.clearValue(key);
    return keys.length;
  }

  // ----- Traces (suppressed while replaying) -----

  traceInfo(message: string): void {
    this.trace('info', message);
  }

  traceWarn(message: string): void {
    this.trace('warn', message);
  }

  traceError(message: string): void {
    this.trace('error', message);
  }

  traceDebug(message: string): void {
    this.trace('debug', message);
  }

  private trace(level: 'info' | 'warn' | 'error' | 'debug', message: string): void {
    if (this.state.isReplaying) return;
    this.logger[level](message, {
      target: 'duroxide::orchestration',
      instanceId: this.instanceId,
      executionId: this.executionId,
      orchestrationName: this.orchestrationName,
      orchestrationVersion: this.orchestrationVersion,
    });
  }
}
