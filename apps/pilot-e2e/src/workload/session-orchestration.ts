import type { OrchestrationContext, ScheduledTask } from '@duro/core';
import { finishedChildren, recordDelivery } from './delivery-ledger.js';
import { KvFifo } from './kv-fifo.js';
import { SeededRandom } from './seeded-random.js';
import {
  initialSessionInput,
  summarizeSession,
  type SessionInput,
  type SessionSummary,
} from './session-input.js';
import { messageLabel, type SessionMessage } from './session-message.js';
import { SESSION_ORCHESTRATION, SESSION_QUEUE } from './session-plan.js';
import {
  CLIENT_CALL_RETRY,
  DIGEST_ORCHESTRATION,
  digestInstanceId,
  NOTIFY_PARENT,
  SPAWN_CHILD,
  TOOL,
  TURN,
  type DigestInput,
  type ToolInput,
  type TurnInput,
} from './activity-names.js';

/** The poor man's non-blocking dequeue of PilotSwarm's drain loop: a race against this timer. */
const DRAIN_TIMER_MS = 10;
/** Most FIFO entries one turn handles. */
const TURN_BATCH = 8;
/** Length of the tool steps that follow a turn, ms. */
const SHORT_TOOL_MS = 20;
const LONG_TOOL_MS = 40;
const FAN_OUT_TOOL_MS = 30;
/** The tool step that a timer beats, cancelling it: how long it would run, and the timer. */
const CANCELLED_TOOL_MS = 2_000;
const TOOL_TIMEOUT_MS = 50;
/** How many parallel tool steps a fan-out runs. */
const FAN_OUT = 3;

type Step = Generator<ScheduledTask, SessionInput, unknown>;

/**
 * A PilotSwarm-shaped session: a loop that moves queued messages into a key-value FIFO by
 * racing `dequeueEvent` against a 10 ms timer (or, when idle, against a long idle timer), hands
 * them to a session-affine turn activity followed by steps that rotate through a digest
 * sub-orchestration, sequential tool steps, a fan-out and a cancelled step (see `turnSteps`),
 * starts its planned children (detached or from an
 * activity, alternately), reports to its parent when it is a child, publishes custom status,
 * and continues as new after a few iterations (at most `continueAsNewEvery`) or when it goes
 * idle. It returns once its client said `close` (roots) or its updates are sent (children) and
 * all its children have finished.
 */
export function* sessionOrchestration(
  ctx: OrchestrationContext,
  input: SessionInput,
): Generator<ScheduledTask, SessionSummary, unknown> {
  let state = input;
  const { plan, knobs } = state;
  const fifo = new KvFifo(ctx);
  const random = new SeededRandom(knobs.seed, plan.id, state.execution);
  const rounds = random.between(Math.min(3, knobs.continueAsNewEvery), knobs.continueAsNewEvery);
  for (let round = 1; ; round += 1) {
    const idle = !hasWork(state, fifo);
    const woke = yield* waitForMessage(ctx, idle ? knobs.idleTimerMs : firstWaitMs(state, random));
    if (woke === null && idle) {
      state = { ...state, idleWakeups: state.idleWakeups + 1 };
      return yield* ctx.continueAsNew(nextExecution(state));
    }
    if (woke !== null) state = yield* drain(ctx, accept(state, fifo, woke), fifo);
    const lastRound = round >= rounds;
    state = yield* runTurn(ctx, state, fifo, random, lastRound);
    state = yield* spawnNextChild(ctx, state, lastRound);
    state = yield* reportToParent(ctx, state);
    state = { ...state, iterations: state.iterations + 1 };
    publishStatus(ctx, state, fifo);
    if (finished(state, fifo)) {
      if (plan.parent !== null) yield* notifyParent(ctx, state, true);
      return summarizeSession(state);
    }
    if (lastRound) return yield* ctx.continueAsNew(nextExecution(state));
  }
}

function hasWork(state: SessionInput, fifo: KvFifo): boolean {
  const { plan } = state;
  return fifo.size > 0 || state.spawned < plan.children.length || state.updatesSent < plan.updates;
}

function finished(state: SessionInput, fifo: KvFifo): boolean {
  const { plan } = state;
  const ownWorkDone = plan.parent === null ? state.closed : state.updatesSent >= plan.updates;
  return (
    ownWorkDone &&
    fifo.size === 0 &&
    state.spawned === plan.children.length &&
    finishedChildren(state.ledger) === plan.children.length
  );
}

function firstWaitMs(state: SessionInput, random: SeededRandom): number {
  return random.chance(state.knobs.longTimerShare) ? state.knobs.longTimerMs : DRAIN_TIMER_MS;
}

function nextExecution(state: SessionInput): SessionInput {
  return { ...state, execution: state.execution + 1 };
}

/** Races the queue against a timer: the message, or `null` when the timer won. */
function* waitForMessage(
  ctx: OrchestrationContext,
  timerMs: number,
): Generator<ScheduledTask, SessionMessage | null, unknown> {
  const winner = yield* ctx.race(
    ctx.dequeueEvent<SessionMessage>(SESSION_QUEUE),
    ctx.scheduleTimer(timerMs),
  );
  return winner.index === 0 ? winner.value : null;
}

function accept(state: SessionInput, fifo: KvFifo, message: SessionMessage): SessionInput {
  fifo.push(messageLabel(message));
  const closed = state.closed || message.kind === 'close';
  return { ...state, closed, ledger: recordDelivery(state.ledger, message) };
}

/** Takes every message already queued, until the 10 ms timer wins or the FIFO is full. */
function* drain(ctx: OrchestrationContext, start: SessionInput, fifo: KvFifo): Step {
  let state = start;
  while (!fifo.full) {
    const message = yield* waitForMessage(ctx, DRAIN_TIMER_MS);
    if (message === null) break;
    state = accept(state, fifo, message);
  }
  return state;
}

function* runTurn(
  ctx: OrchestrationContext,
  state: SessionInput,
  fifo: KvFifo,
  random: SeededRandom,
  lastRound: boolean,
): Step {
  const { plan, knobs } = state;
  const items = fifo.take(TURN_BATCH);
  if (items.length === 0 && state.updatesSent >= plan.updates) return state;
  const durationMs = random.chance(knobs.longTurnShare)
    ? knobs.longTurnMs
    : random.between(knobs.turnMs[0], knobs.turnMs[1]);
  const turn: TurnInput = {
    session: plan.id,
    iteration: state.iterations,
    items,
    durationMs,
    beforeContinueAsNew: lastRound,
  };
  yield* ctx.scheduleActivityOnSession(TURN, turn, ctx.instanceId);
  yield* turnSteps(ctx, plan.id, state.turns);
  return { ...state, turns: state.turns + 1 };
}

/**
 * What follows turn number `turn` of a session, in rotation: a digest sub-orchestration (which
 * raises and waits for an external event), two tool steps one after the other on the session, a
 * fan-out of tool steps on the session, and a tool step that a timer beats, which cancels it.
 */
function* turnSteps(
  ctx: OrchestrationContext,
  session: string,
  turn: number,
): Generator<ScheduledTask, void, unknown> {
  const tool = (step: string, durationMs: number): ScheduledTask =>
    ctx.scheduleActivityOnSession(TOOL, { session, step, durationMs } satisfies ToolInput, session);
  switch (turn % 4) {
    case 0: {
      const input: DigestInput = { session, turn };
      yield* ctx.scheduleSubOrchestrationWithId(
        DIGEST_ORCHESTRATION,
        digestInstanceId(session, turn),
        input,
      );
      return;
    }
    case 1:
      yield* tool('first', SHORT_TOOL_MS);
      yield* tool('second', LONG_TOOL_MS);
      return;
    case 2:
      yield* ctx.all(
        Array.from({ length: FAN_OUT }, (_, index) => tool(`fan-${index}`, FAN_OUT_TOOL_MS)),
      );
      return;
    default:
      yield* ctx.race(tool('cancelled', CANCELLED_TOOL_MS), ctx.scheduleTimer(TOOL_TIMEOUT_MS));
  }
}

/**
 * Starts the next planned child. PilotSwarm starts children from an activity; duroxide also has
 * a detached start, so even children start detached and odd ones from the activity. A turn that
 * continues as new uses the activity too: duroxide sends a detached start only when the turn
 * that records it waits or ends, not when it continues as new, so the child would never start
 * on a Rust worker (duro starts it either way).
 */
function* spawnNextChild(ctx: OrchestrationContext, state: SessionInput, lastRound: boolean): Step {
  const child = state.plan.children[state.spawned];
  if (child === undefined) return state;
  const input = initialSessionInput(child, state.knobs);
  if (state.spawned % 2 === 0 && !lastRound) {
    yield* ctx.startOrchestration(SESSION_ORCHESTRATION, child.id, input);
  } else {
    yield* ctx.scheduleActivityWithRetry(SPAWN_CHILD, { id: child.id, input }, CLIENT_CALL_RETRY);
  }
  return { ...state, spawned: state.spawned + 1 };
}

function* reportToParent(ctx: OrchestrationContext, state: SessionInput): Step {
  if (state.plan.parent === null || state.updatesSent >= state.plan.updates) return state;
  yield* notifyParent(ctx, state, false);
  return { ...state, updatesSent: state.updatesSent + 1 };
}

function* notifyParent(
  ctx: OrchestrationContext,
  state: SessionInput,
  final: boolean,
): Generator<ScheduledTask, void, unknown> {
  yield* ctx.scheduleActivityWithRetry(
    NOTIFY_PARENT,
    { parent: state.plan.parent, from: state.plan.id, seq: state.updatesSent, final },
    CLIENT_CALL_RETRY,
  );
}

function publishStatus(ctx: OrchestrationContext, state: SessionInput, fifo: KvFifo): void {
  ctx.setCustomStatus(
    JSON.stringify({
      execution: state.execution,
      iterations: state.iterations,
      delivered: state.ledger.client,
      childrenFinished: finishedChildren(state.ledger),
      pending: fifo.size,
      anomalies: state.ledger.anomalyCount,
    }),
  );
}
