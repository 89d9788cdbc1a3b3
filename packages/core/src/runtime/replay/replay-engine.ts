import type { ErrorDetails } from '../../model/error-details.js';
import type { Event, EventKind } from '../../model/event.js';
import { compareSemver, parseSemver } from '../../model/semver.js';
import type { WorkItem } from '../../model/work-item.js';
import type { KvEntry } from '../../provider/orchestration-item.js';
import type { Logger } from '../logger.js';
import { errorText } from '../error-text.js';
import { newEvent } from '../runtime-version.js';
import { actionToEventKind, bindActionToEvent, type Action } from './action.js';
import { intakeCompletions, nondeterminism } from './completion-intake.js';
import { reconcileDroppedTasks } from './dropped-task-reconciler.js';
import { HistoryMatcher, TurnAbort, abortTurn } from './history-matcher.js';
import {
  GeneratorNode,
  OrchestrationPanic,
  type OrchestrationGenerator,
} from './generator-node.js';
import { OrchestrationContext } from './orchestration-context.js';
import { ReplayState, type RaceCancellationPolicy } from './replay-state.js';
import { TaskBuilder } from './task-builder.js';
import { parsePayload } from '../../model/payload.js';
import type { Outcome } from './task-node.js';
import type { TurnResult } from './turn-result.js';

/**
 * An orchestration body: a generator function yielding task descriptors and returning the
 * output (written as JSON). `yield task` evaluates to `any` as in duroxide-node; use
 * `yield* task` for a typed result. Its input is the start input parsed as JSON.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the input is parsed JSON
export type OrchestrationFunction<In = any, Out = unknown> = (
  ctx: OrchestrationContext,
  input: In,
  // `any` as in duroxide-node: one type for every `yield`; `yield*` gives typed results.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
) => Generator<unknown, Out, any>;

/** Everything a turn starts from. */
export interface ReplayEngineInput {
  readonly instance: string;
  readonly executionId: number;
  /** The execution's history, including a new `OrchestrationStarted` on the first turn. */
  readonly history: readonly Event[];
  /** How many leading events of `history` were stored before this turn (replayed). */
  readonly persistedLength: number;
  readonly kvSnapshot: ReadonlyMap<string, KvEntry>;
  readonly logger: Logger;
}

/** Executions stamped with this version or later replay races with the 0.1.31 rules. */
const RACE_CANCELLATION_FIX_SINCE = parseSemver('0.1.31');
const MAX_QUIESCENCE_ITERATIONS = 100;

function policyOf(stamp: string): RaceCancellationPolicy {
  try {
    return compareSemver(parseSemver(stamp), RACE_CANCELLATION_FIX_SINCE) >= 0 ? 'v0131' : 'legacy';
  } catch {
    return 'legacy';
  }
}

function isTerminal(kind: EventKind): boolean {
  return (
    kind.type === 'OrchestrationCompleted' ||
    kind.type === 'OrchestrationFailed' ||
    kind.type === 'OrchestrationContinuedAsNew'
  );
}

function panicked(message: string): TurnResult {
  return {
    type: 'Failed',
    details: { type: 'Application', kind: { type: 'Panicked' }, message, retryable: false },
  };
}

/**
 * Replays one execution and runs one turn of it, as duroxide's `ReplayEngine`: stage 1 turns
 * the batch into events; stage 2 runs the orchestration from the start, matching every decision
 * it makes against history in order (a mismatch is nondeterminism), delivering recorded results
 * one event at a time, then records the new decisions with the next event ids.
 * @internal
 */
export class ReplayEngine {
  readonly historyDelta: Event[] = [];
  readonly pendingActions: Action[] = [];
  readonly cancelledActivityIds: number[] = [];
  readonly cancelledSubOrchestrations: string[] = [];
  private nextEventId: number;
  private abortError: ErrorDetails | null = null;
  private readonly state = new ReplayState();
  private readonly matcher = new HistoryMatcher(this.state);
  private root: GeneratorNode | undefined;

  constructor(private readonly input: ReplayEngineInput) {
    const last = input.history[input.history.length - 1];
    this.nextEventId = last ? last.eventId + 1 : 1;
  }

  /** Stage 1: appends the events the batch's messages produce. */
  prepCompletions(messages: readonly WorkItem[]): void {
    const intake = intakeCompletions(this.input.history, this.input.executionId, messages);
    intake.kinds.forEach((kind, index) => this.append(intake.sourceIds[index] ?? null, kind));
    if (intake.abortError) this.abortError = intake.abortError;
  }

  /** Stage 2: runs the turn. */
  execute(
    handler: OrchestrationFunction,
    input: string,
    name: string,
    version: string,
  ): TurnResult {
    if (this.abortError) return { type: 'Failed', details: this.abortError };
    const history = [...this.input.history, ...this.historyDelta];
    if (history.some((event) => isTerminal(event.kind))) return { type: 'Continue' };
    const first = history[0];
    if (!first) return { type: 'Failed', details: nondeterminism('corrupted history: empty') };
    if (first.kind.type !== 'OrchestrationStarted') {
      return {
        type: 'Failed',
        details: nondeterminism('corrupted history: first event must be OrchestrationStarted'),
      };
    }
    try {
      return this.run(history, first, handler, input, name, version);
    } catch (error) {
      if (error instanceof TurnAbort) return error.result;
      throw error;
    }
  }

  private run(
    history: readonly Event[],
    first: Event,
    handler: OrchestrationFunction,
    input: string,
    name: string,
    version: string,
  ): TurnResult {
    const { state } = this;
    state.policy = policyOf(first.duroxideVersion);
    for (const [key, entry] of this.input.kvSnapshot) {
      state.kvValues.set(key, entry.value);
      state.kvUpdatedAt.set(key, entry.lastUpdatedAtMs);
    }
    if (
      first.kind.type === 'OrchestrationStarted' &&
      first.kind.initialCustomStatus !== undefined
    ) {
      state.customStatus = first.kind.initialCustomStatus;
    }
    const info = {
      instanceId: this.input.instance,
      executionId: this.input.executionId,
      orchestrationName: name,
      orchestrationVersion: version,
    };
    const ctx = new OrchestrationContext(info, state, this.input.logger, Date.now);
    const builder = new TaskBuilder(state, Date.now);
    this.root = new GeneratorNode(
      invoke(handler, ctx, input),
      (task) => builder.build(task),
      errorText,
    );

    let output: Outcome | undefined;
    let mustPoll = true;
    if (this.input.persistedLength === 0) state.isReplaying = false;
    for (let index = 0; index < history.length; index += 1) {
      if (index >= this.input.persistedLength) state.isReplaying = false;
      if (mustPoll) {
        output = this.poll();
        if (output) break;
        mustPoll = false;
      }
      const event = history[index];
      if (event && this.matcher.apply(event)) mustPoll = true;
    }
    state.isReplaying = false;
    if (mustPoll && !output) output = this.poll();

    if (state.policy === 'legacy') {
      // Legacy executions apply dropped dequeues only here, after the walk.
      for (const id of state.cancelledScheduleIds('queue'))
        state.markQueueSubscriptionCancelled(id);
    }
    this.convertEmitted();
    output = this.quiesce(output);
    return this.finalize(output);
  }

  private poll(): Outcome | undefined {
    let outcome: Outcome | undefined;
    try {
      outcome = this.root?.poll();
    } catch (error) {
      throw new TurnAbort(
        panicked(error instanceof OrchestrationPanic ? error.message : String(error)),
      );
    }
    this.matcher.addEmitted(this.state.drainEmitted());
    return outcome;
  }

  /** Records the decisions beyond history as new events with the next ids. */
  private convertEmitted(): void {
    for (const [token, action] of this.matcher.takeUnmatched()) {
      const eventId = this.nextEventId;
      this.nextEventId += 1;
      this.state.bindToken(token, eventId);
      const bound = bindActionToEvent(action, this.input.executionId, eventId);
      if (bound.type === 'StartSubOrchestration')
        this.state.bindSubOrchestrationInstance(token, bound.instance);
      if (bound.type === 'WaitExternal') this.state.bindExternalSubscription(eventId, bound.name);
      if (bound.type === 'DequeueEvent') this.state.bindQueueSubscription(eventId, bound.name);
      const kind = actionToEventKind(bound);
      if (kind) {
        this.historyDelta.push(
          newEvent(eventId, this.input.instance, this.input.executionId, null, kind),
        );
      }
      this.pendingActions.push(bound);
    }
  }

  /** Polls again while new decisions appear, so a new dequeue can take a delivered message. */
  private quiesce(output: Outcome | undefined): Outcome | undefined {
    let iterations = 0;
    while (!output && this.pendingActions.length > 0 && iterations < MAX_QUIESCENCE_ITERATIONS) {
      iterations += 1;
      const before = this.pendingActions.length;
      output = this.poll();
      this.convertEmitted();
      if (this.pendingActions.length === before) break;
    }
    if (iterations >= MAX_QUIESCENCE_ITERATIONS) {
      abortTurn({
        type: 'Infrastructure',
        operation: 'quiescence_loop',
        message: `quiescence loop exceeded ${MAX_QUIESCENCE_ITERATIONS} iterations — orchestration is emitting unbounded persistent event subscriptions`,
        retryable: false,
      });
    }
    return output;
  }

  private finalize(output: Outcome | undefined): TurnResult {
    const all = [...this.input.history, ...this.historyDelta];
    const cancel = all.find((event) => event.kind.type === 'OrchestrationCancelRequested');
    if (cancel?.kind.type === 'OrchestrationCancelRequested') {
      return { type: 'Cancelled', reason: cancel.kind.reason };
    }
    const continued = this.pendingActions.find((action) => action.type === 'ContinueAsNew');
    if (continued?.type === 'ContinueAsNew') {
      return {
        type: 'ContinueAsNew',
        input: continued.input,
        version: continued.version,
        unconsumedQueueArrivals:
          this.state.policy === 'v0131' ? this.state.unconsumedQueueArrivals() : null,
      };
    }
    const mismatch = reconcileDroppedTasks(this.state, {
      baseline: this.input.history,
      persistedLength: this.input.persistedLength,
      delta: this.historyDelta,
      cancelledActivityIds: this.cancelledActivityIds,
      cancelledSubOrchestrations: this.cancelledSubOrchestrations,
      appendBreadcrumb: (sourceEventId, kind) => this.append(sourceEventId, kind),
    });
    if (mismatch) return { type: 'Failed', details: mismatch };
    if (!output) return { type: 'Continue' };
    if (!output.ok) {
      return {
        type: 'Failed',
        details: {
          type: 'Application',
          kind: { type: 'OrchestrationFailed' },
          message: output.error,
          retryable: false,
        },
      };
    }
    const encoded = encodeOutput(output.value);
    return encoded.ok
      ? { type: 'Completed', output: encoded.text }
      : {
          type: 'Failed',
          details: {
            type: 'Application',
            kind: { type: 'OrchestrationFailed' },
            message: encoded.error,
            retryable: false,
          },
        };
  }

  private append(sourceEventId: number | null, kind: EventKind): void {
    this.historyDelta.push(
      newEvent(this.nextEventId, this.input.instance, this.input.executionId, sourceEventId, kind),
    );
    this.nextEventId += 1;
  }
}

function* invoke(
  handler: OrchestrationFunction,
  ctx: OrchestrationContext,
  input: string,
): OrchestrationGenerator {
  const result = handler(ctx, parsePayload(input));
  if (isGenerator(result)) return yield* result;
  return result;
}

function isGenerator(value: unknown): value is OrchestrationGenerator {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { next?: unknown }).next === 'function' &&
    typeof (value as { throw?: unknown }).throw === 'function'
  );
}

function encodeOutput(value: unknown): { ok: true; text: string } | { ok: false; error: string } {
  try {
    const text = JSON.stringify(value === undefined ? null : value) as string | undefined;
    return text === undefined
      ? {
          ok: false,
          error: `orchestration returned ${typeof value}, which cannot be written as JSON`,
        }
      : { ok: true, text };
  } catch (error) {
    return { ok: false, error: `orchestration output cannot be written as JSON: ${String(error)}` };
  }
}
