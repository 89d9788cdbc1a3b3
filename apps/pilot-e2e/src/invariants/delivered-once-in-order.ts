import type { DeliveryLedger } from '../workload/delivery-ledger.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';
import { outcomeName, type InstanceOutcome } from './instance-outcome.js';

/**
 * Every message was delivered exactly once and in order per session, across continue-as-new:
 * each completed session's ledger (kept in its durable state) shows no anomaly, a root saw
 * exactly as many client messages as its client enqueued, and every planned child's updates
 * arrived up to and including the final one. A session that did not complete is held to the
 * ledger its latest continue-as-new carried: its counts are short by design (sessions-complete
 * reports it), but an anomaly it recorded is a violation here, and often why it never finished.
 * `clientSent` maps `schema/id` to messages enqueued, `clientResent` to the sequence numbers the
 * client enqueued again after an enqueue failed (a message delivered twice is excused only
 * there: the failed enqueue may have committed).
 */
export function checkDeliveredOnceInOrder(
  outcomes: readonly InstanceOutcome[],
  clientSent: ReadonlyMap<string, number>,
  failedSends: readonly string[],
  clientResent: ReadonlyMap<string, ReadonlySet<number>> = new Map(),
): InvariantResult {
  let resentTwice = 0;
  /** The anomalies of `ledger` that are no client re-send after a failed enqueue. */
  const anomaliesOf = (name: string, ledger: DeliveryLedger): string[] => {
    const all = describedAnomalies(name, ledger);
    const resent = clientResent.get(name) ?? new Set<number>();
    const kept = all.filter((anomaly) => {
      const duplicate = CLIENT_DUPLICATE.exec(anomaly);
      return duplicate === null || !resent.has(Number(duplicate[1]));
    });
    resentTwice += all.length - kept.length;
    return kept;
  };
  const violations: string[] = failedSends.map((failure) => `client could not enqueue ${failure}`);
  let clientMessages = 0;
  let childUpdates = 0;
  let resent = 0;
  let checked = 0;
  for (const outcome of outcomes) {
    const { summary, plan } = outcome;
    const name = outcomeName(outcome);
    if (summary === null) {
      if (outcome.carriedLedger !== null) {
        violations.push(...anomaliesOf(name, outcome.carriedLedger));
      }
      continue;
    }
    checked += 1;
    const { ledger } = summary;
    resent += ledger.resent;
    violations.push(...anomaliesOf(name, ledger));
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
  if (checked === 0) violations.push('no session completed: there was nothing to judge');
  return invariantResult(
    'delivered-once-in-order',
    `${clientMessages} client messages and ${childUpdates} child updates checked in ${checked} sessions`,
    {
      sessionsChecked: checked,
      clientMessages,
      childUpdates,
      updatesResentByActivityRetry: resent,
      clientMessagesResentAfterFailedEnqueue: resentTwice,
    },
    violations,
  );
}

/**
 * A client message delivered again after later ones: the store delivered it twice, unless its
 * client re-sent it after an enqueue that failed without saying whether it had committed (a
 * server crash between the commit and the answer). Such a re-send is excused.
 */
const CLIENT_DUPLICATE = /: client message (\d+) arrived when \d+ was due$/;

/** The anomalies a ledger recorded, as violations of the session `name`. */
function describedAnomalies(name: string, ledger: DeliveryLedger): string[] {
  const described = ledger.anomalies.map((anomaly) => `${name}: ${anomaly}`);
  const more = ledger.anomalyCount - ledger.anomalies.length;
  return more > 0 ? [...described, `${name}: ${more} more anomalies`] : described;
}
