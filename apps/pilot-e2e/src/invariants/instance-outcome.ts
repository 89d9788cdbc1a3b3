import type { DeliveryLedger } from '../workload/delivery-ledger.js';
import type { SessionPlan } from '../workload/session-plan.js';
import type { SessionSummary } from '../workload/session-input.js';

/** A planned session together with what the store says became of it. */
export interface InstanceOutcome {
  readonly schema: string;
  readonly plan: SessionPlan;
  /** Status of the current execution (`'Missing'` when the instance does not exist). */
  readonly status: string;
  /** The parsed output when Completed, else `null`. */
  readonly summary: SessionSummary | null;
  /**
   * When not Completed, the delivery ledger its latest continue-as-new carried on (`null` when
   * it never continued as new): what it had received so far.
   */
  readonly carriedLedger: DeliveryLedger | null;
  /** The output text when Failed (the failure), else `null`. */
  readonly error: string | null;
}

/** `schema/instance` for messages. */
export function outcomeName(outcome: InstanceOutcome): string {
  return `${outcome.schema}/${outcome.plan.id}`;
}
