import type { DeliveryLedger } from './delivery-ledger.js';
import { EMPTY_LEDGER } from './delivery-ledger.js';
import type { SessionPlan } from './session-plan.js';

/** The workload settings a session needs, carried in its input (durations in ms). */
export interface SessionKnobs {
  readonly seed: number;
  readonly turnMs: readonly [min: number, max: number];
  readonly longTurnShare: number;
  readonly longTurnMs: number;
  readonly continueAsNewEvery: number;
  readonly idleTimerMs: number;
  readonly longTimerShare: number;
  readonly longTimerMs: number;
}

/**
 * A session's input, and the state it carries into the next execution by continue-as-new (the
 * not-yet-handled messages ride in the key-value FIFO instead).
 */
export interface SessionInput {
  readonly plan: SessionPlan;
  readonly knobs: SessionKnobs;
  /** This execution's number, from 1. */
  readonly execution: number;
  /** Loop iterations of all earlier executions and this one so far. */
  readonly iterations: number;
  readonly turns: number;
  /** Times the session went idle (its idle timer beat every message). */
  readonly idleWakeups: number;
  /** Children started so far. */
  readonly spawned: number;
  /** Updates sent to the parent so far (children only), the final one excluded. */
  readonly updatesSent: number;
  /** The client's `close` has been delivered. */
  readonly closed: boolean;
  readonly ledger: DeliveryLedger;
}

/** What a finished session returns as its output. */
export interface SessionSummary {
  readonly id: string;
  readonly executions: number;
  readonly iterations: number;
  readonly turns: number;
  readonly idleWakeups: number;
  readonly spawned: number;
  readonly updatesSent: number;
  readonly closed: boolean;
  readonly ledger: DeliveryLedger;
}

/** The input that starts a session from its plan. */
export function initialSessionInput(plan: SessionPlan, knobs: SessionKnobs): SessionInput {
  return {
    plan,
    knobs,
    execution: 1,
    iterations: 0,
    turns: 0,
    idleWakeups: 0,
    spawned: 0,
    updatesSent: 0,
    closed: false,
    ledger: EMPTY_LEDGER,
  };
}

/** The output of a session that has finished with `state`. */
export function summarizeSession(state: SessionInput): SessionSummary {
  const { plan, execution, iterations, turns, idleWakeups, spawned, updatesSent, closed, ledger } =
    state;
  return {
    id: plan.id,
    executions: execution,
    iterations,
    turns,
    idleWakeups,
    spawned,
    updatesSent,
    closed,
    ledger,
  };
}
