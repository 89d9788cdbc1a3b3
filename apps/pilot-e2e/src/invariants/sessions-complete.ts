import { invariantResult, type InvariantResult } from './invariant-result.js';
import { outcomeName, type InstanceOutcome } from './instance-outcome.js';

/** A digest sub-orchestration a session ran, and its status. */
export interface DigestOutcome {
  /** `schema/instance`. */
  readonly name: string;
  readonly status: string;
}

/**
 * Every planned session and child reached its expected final state: Completed, with its client's
 * `close` seen (roots), all its updates sent (children) and all its children started; and every
 * digest sub-orchestration a session ran completed. `unplanned` lists instances found in the
 * store that no plan names.
 */
export function checkSessionsComplete(
  outcomes: readonly InstanceOutcome[],
  digests: readonly DigestOutcome[],
  unplanned: readonly string[],
): InvariantResult {
  const violations: string[] = [];
  const byStatus = new Map<string, number>();
  for (const outcome of outcomes) {
    byStatus.set(outcome.status, (byStatus.get(outcome.status) ?? 0) + 1);
    const name = outcomeName(outcome);
    const { plan, summary } = outcome;
    if (outcome.status !== 'Completed' || summary === null) {
      violations.push(
        `${name} is ${outcome.status}${outcome.error !== null ? `: ${outcome.error}` : ''}`,
      );
      continue;
    }
    if (plan.parent === null && !summary.closed)
      violations.push(`${name} completed without its close`);
    if (plan.parent !== null && summary.updatesSent !== plan.updates) {
      violations.push(`${name} sent ${summary.updatesSent} of ${plan.updates} updates`);
    }
    if (summary.spawned !== plan.children.length) {
      violations.push(`${name} started ${summary.spawned} of ${plan.children.length} children`);
    }
  }
  for (const digest of digests) {
    if (digest.status !== 'Completed') violations.push(`${digest.name} is ${digest.status}`);
  }
  for (const id of unplanned) violations.push(`${id} exists but no plan names it`);
  if (outcomes.length === 0) violations.push('no instance was planned: there was nothing to judge');
  const completed = byStatus.get('Completed') ?? 0;
  return invariantResult(
    'sessions-complete',
    `${completed} of ${outcomes.length} planned instances completed as planned`,
    {
      instances: outcomes.length,
      completed,
      failed: byStatus.get('Failed') ?? 0,
      running: byStatus.get('Running') ?? 0,
      missing: byStatus.get('Missing') ?? 0,
      unplanned: unplanned.length,
      digests: digests.length,
      executions: outcomes.reduce((sum, outcome) => sum + (outcome.summary?.executions ?? 0), 0),
    },
    violations,
  );
}
