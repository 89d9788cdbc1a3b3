import { CLAIM_PATHS, type ClaimRecord } from '../observe/audit-records.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';

/** What one worker's runtime counted over all its lives. */
export interface RuntimeClaimCounts {
  readonly worker: string;
  /** Orchestration items its runtime took up (`orchDispatcherItemsFetched`). */
  readonly turns: number;
  /** Activities its runtime took up (`workerDispatcherItemsFetched`). */
  readonly activities: number;
}

/**
 * The checks saw every claim: each worker's observer recorded at least as many claims per queue
 * as its runtime reports having taken up (a claim path the observer does not wrap would show as
 * fewer), no claim or record failed to reach the audit log, and there was something to see.
 * A runtime's counts of a killed life miss its last moments, which only lowers them.
 */
export function checkClaimsObserved(
  claims: readonly ClaimRecord[],
  counted: readonly RuntimeClaimCounts[],
  unobserved: number,
): InvariantResult {
  const violations: string[] = [];
  if (claims.length === 0) violations.push('no claim was observed: there was nothing to judge');
  if (unobserved > 0) {
    violations.push(`${unobserved} claims or lock records could not be written to the audit log`);
  }
  for (const { worker, turns, activities } of counted) {
    const own = claims.filter((claim) => claim.worker === worker);
    const seenTurns = own.filter((claim) => claim.queue === 'orchestrator').length;
    const seenActivities = own.length - seenTurns;
    if (turns > seenTurns) {
      violations.push(
        `${worker}'s runtime took up ${turns} turns, the observer saw ${seenTurns} claimed`,
      );
    }
    if (activities > seenActivities) {
      violations.push(
        `${worker}'s runtime took up ${activities} activities, the observer saw ${seenActivities} claimed`,
      );
    }
  }
  const figures: Record<string, number> = { claims: claims.length, unobserved };
  for (const path of CLAIM_PATHS) {
    for (const queue of ['orchestrator', 'worker'] as const) {
      figures[`${queue}.${path}`] = claims.filter(
        (claim) => claim.path === path && claim.queue === queue,
      ).length;
    }
  }
  return invariantResult(
    'claims-observed',
    `${claims.length} claims observed (fetch ${figures['orchestrator.fetch']! + figures['worker.fetch']!}, batch ${figures['orchestrator.batch']! + figures['worker.batch']!}, hand-off ${figures['worker.handoff']}), ${unobserved} unobserved`,
    figures,
    violations,
  );
}
