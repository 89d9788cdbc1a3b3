import type { MetricsSnapshot } from '@duro/core';
import type { AuditRecord } from '../observe/audit-log.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';

/**
 * Delivery attempts stayed bounded: no message was fetched more than `maxAttempt` times, and no
 * runtime poisoned an orchestration or an activity.
 */
export function checkAttemptsBounded(
  audit: readonly AuditRecord[],
  metrics: MetricsSnapshot | null,
  maxAttempt: number,
): InvariantResult {
  const redeliveries = audit.filter((record) => record.kind === 'redelivery');
  const highest = redeliveries.reduce((max, record) => Math.max(max, record.value ?? 0), 1);
  const violations = redeliveries
    .filter((record) => (record.value ?? 0) > maxAttempt)
    .map(
      (record) =>
        `${record.schema}/${record.instance} ${record.queue} message reached attempt ${record.value} on ${record.worker}`,
    );
  const orchPoison = metrics?.orchPoison ?? 0;
  const activityPoison = metrics?.activityPoison ?? 0;
  if (orchPoison > 0) violations.push(`${orchPoison} orchestration message(s) poisoned`);
  if (activityPoison > 0) violations.push(`${activityPoison} activity message(s) poisoned`);
  return invariantResult(
    'attempts-bounded',
    `${redeliveries.length} redeliveries, highest attempt ${highest} (bound ${maxAttempt}), ${orchPoison + activityPoison} poisoned`,
    {
      redeliveries: redeliveries.length,
      highestAttempt: highest,
      bound: maxAttempt,
      orchPoison,
      activityPoison,
    },
    violations,
  );
}
