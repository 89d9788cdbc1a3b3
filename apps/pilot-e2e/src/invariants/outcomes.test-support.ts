import type { AuditRecord } from '../observe/audit-log.js';
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

/** An audit row with the given fields. */
export function auditRecord(fields: Partial<AuditRecord> & Pick<AuditRecord, 'kind'>): AuditRecord {
  return {
    schema: 's',
    worker: 'main-w0',
    queue: 'orchestrator',
    instance: 'session-0000',
    messageKey: 'k1',
    value: null,
    startedAtMs: 1_000,
    endedAtMs: 1_010,
    detail: '',
    ...fields,
  };
}
