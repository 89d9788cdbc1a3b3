import type { ClaimRecord, FetchWait, LockEvent } from '../observe/audit-records.js';
import { EMPTY_LEDGER, type DeliveryLedger } from '../workload/delivery-ledger.js';
import type { SessionSummary } from '../workload/session-input.js';
import type { SessionPlan } from '../workload/session-plan.js';
import type { InstanceOutcome } from './instance-outcome.js';

/** A root with one child that sends two updates, as a completed run records them. */
export const CHILD_PLAN: SessionPlan = {
  id: 'session-0000.c0',
  depth: 1,
  parent: 'session-0000',
  clientMessages: 0,
  updates: 2,
  children: [],
};

export const ROOT_PLAN: SessionPlan = {
  id: 'session-0000',
  depth: 0,
  parent: null,
  clientMessages: 3,
  updates: 0,
  children: [CHILD_PLAN],
};

/** The root's ledger after 3 prompts, its close, and the child's 2 updates plus final. */
export const ROOT_LEDGER: DeliveryLedger = {
  ...EMPTY_LEDGER,
  client: 4,
  children: { [CHILD_PLAN.id]: { next: 3, nonces: ['a', 'b', 'c'], final: true } },
};

function summary(plan: SessionPlan, ledger: DeliveryLedger): SessionSummary {
  return {
    id: plan.id,
    executions: 2,
    iterations: 7,
    turns: 5,
    idleWakeups: 1,
    spawned: plan.children.length,
    updatesSent: plan.updates,
    closed: plan.parent === null,
    ledger,
  };
}

/** The two outcomes of a healthy run; override fields to record a violation. */
export function healthyOutcomes(rootLedger: DeliveryLedger = ROOT_LEDGER): InstanceOutcome[] {
  return [
    {
      schema: 's',
      plan: ROOT_PLAN,
      status: 'Completed',
      summary: summary(ROOT_PLAN, rootLedger),
      carriedLedger: null,
      error: null,
    },
    {
      schema: 's',
      plan: CHILD_PLAN,
      status: 'Completed',
      summary: summary(CHILD_PLAN, EMPTY_LEDGER),
      carriedLedger: null,
      error: null,
    },
  ];
}

/** A claim of one activity by `main-w0` at 1 000 ms with a 3 s lease; override fields. */
export function claimRecord(fields: Partial<ClaimRecord> = {}): ClaimRecord {
  return {
    schema: 's',
    worker: 'main-w0',
    life: 100,
    queue: 'worker',
    path: 'batch',
    instance: 'session-0000',
    session: null,
    messageKey: 'session-0000/1/activity-4',
    lockToken: 't1',
    attempt: 1,
    fetchStartedAtMs: 990,
    claimedAtMs: 1_000,
    lockTimeoutMs: 3_000,
    lockedUntilMs: 4_000,
    runnableAtMs: 995,
    stillQueued: true,
    observedAtMs: 1_002,
    ...fields,
  };
}

/** What `main-w0` did with lock `t1` at 1 100 ms; override fields. */
export function lockEvent(fields: Partial<LockEvent> & Pick<LockEvent, 'kind'>): LockEvent {
  return {
    worker: 'main-w0',
    life: 100,
    queue: 'worker',
    lockToken: 't1',
    atMs: 1_100,
    lockedUntilMs: null,
    detail: '',
    ...fields,
  };
}

/** A fetch of `main-w0` that waited for activities from `fromMs` to `toMs`, routing sessions. */
export function fetchWait(
  fromMs: number,
  toMs: number,
  fields: Partial<FetchWait> = {},
): FetchWait {
  return {
    schema: 's',
    worker: 'main-w0',
    life: 100,
    queue: 'worker',
    fromMs,
    toMs,
    maxItems: 2,
    sessionRouting: true,
    returned: 0,
    ...fields,
  };
}
