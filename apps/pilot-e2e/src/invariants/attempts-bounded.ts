import type { MetricsSnapshot } from '@duro/core';
import type { ClaimRecord } from '../observe/audit-records.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';

/**
 * Delivery attempts stayed bounded: no message was claimed more than `maxAttempt` times, and no
 * runtime poisoned an orchestration or an activity. A run without a claim fails.
 */
export function checkAttemptsBounded(
  claims: readonly ClaimRecord[],
  metrics: MetricsSnapshot | null,
  maxAttempt: number,
): InvariantResult {
  const redeliveries = claims.filter((claim) => claim.attempt > 1);
  const highest = redeliveries.reduce((max, claim) => Math.max(max, claim.attempt), 1);
  const violations = redeliveries
    .filter((claim) => claim.attempt > maxAttempt)
    .map(
      (claim) =>
        `${claim.schema}/${claim.instance} ${claim.queue} message reached attempt ${claim.attempt} on ${claim.worker}`,
    );
  const orchPoison = metrics?.orchPoison ?? 0;
  const activityPoison = metrics?.activityPoison ?? 0;
  if (orchPoison > 0) violations.push(`${orchPoison} orchestration message(s) poisoned`);
  if (activityPoison > 0) violations.push(`${activityPoison} activity message(s) poisoned`);
  if (claims.length === 0) violations.push('no claim was observed: there was nothing to judge');
  return invariantResult(
    'attempts-bounded',
    `${claims.length} claims, ${redeliveries.length} redeliveries, highest attempt ${highest} (bound ${maxAttempt}), ${orchPoison + activityPoison} poisoned`,
    {
      claims: claims.length,
      redeliveries: redeliveries.length,
      highestAttempt: highest,
      bound: maxAttempt,
      orchPoison,
      activityPoison,
    },
    violations,
  );
}
