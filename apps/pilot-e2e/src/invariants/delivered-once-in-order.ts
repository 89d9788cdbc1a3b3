import { invariantResult, type InvariantResult } from './invariant-result.js';
import { outcomeName, type InstanceOutcome } from './instance-outcome.js';

/**
 * Every message was delivered exactly once and in order per session, across continue-as-new:
 * each completed session's ledger (kept in its durable state) shows no anomaly, a root saw
 * exactly as many client messages as its client enqueued, and every planned child's updates
 * arrived up to and including the final one. `clientSent` maps `schema/id` to messages enqueued.
 */
export function checkDeliveredOnceInOrder(
  outcomes: readonly InstanceOutcome[],
  clientSent: ReadonlyMap<string, number>,
  failedSends: readonly string[],
): InvariantResult {
  const violations: string[] = failedSends.map((failure) => `client could not enqueue ${failure}`);
  let clientMessages = 0;
  let childUpdates = 0;
  let resent = 0;
  let checked = 0;
  for (const outcome of outcomes) {
    const { summary, plan } = outcome;
    if (summary === null) continue;
    checked += 1;
    const name = outcomeName(outcome);
    const { ledger } = summary;
    resent += ledger.resent;
    for (const anomaly of ledger.anomalies) violations.push(`${name}: ${anomaly}`);
    if (ledger.anomalyCount > ledger.anomalies.length) {
      violations.push(`${name}: ${ledger.anomalyCount - ledger.anomalies.length} more anomalies`);
    }
    if (plan.parent === null) {
      const sent = clientSent.get(name) ?? 0;
      clientMessages += ledger.client;
      if (ledger.client !== sent) {
        violations.push(`${name} was delivered ${ledger.client} of ${sent} client messages`);
      }
    }
    for (const child of plan.children) {
      const progress = ledger.children[child.id];
      childUpdates += progress?.next ?? 0;
      const expected = child.updates + 1;
      if (progress === undefined || progress.next !== expected || !progress.final) {
        violations.push(
          `${name} was delivered ${progress?.next ?? 0} of ${expected} updates of ${child.id}`,
        );
      }
    }
  }
  return invariantResult(
    'delivered-once-in-order',
    `${clientMessages} client messages and ${childUpdates} child updates checked in ${checked} sessions`,
    {
      sessionsChecked: checked,
      clientMessages,
      childUpdates,
      updatesResentByActivityRetry: resent,
    },
    violations,
  );
}
