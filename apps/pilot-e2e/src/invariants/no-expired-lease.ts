import type { FreezeWindow } from '../chaos/chaos-context.js';
import type { ClaimRecord } from '../observe/audit-records.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';
import type { Interval } from './interval-union.js';

function overlaps(fromMs: number, toMs: number, windows: readonly Interval[]): boolean {
  return windows.some((window) => fromMs <= window.toMs && toMs >= window.fromMs);
}

/**
 * No claim handed out a lease that had already run out. Each claim's lease end is read from the
 * store by the statement that records the claim, and judged against the moment the claim
 * returned. An activity a turn cancelled (its row deleted) before the lease was read has no lease
 * left to judge. A lease that had run out by then is excused only when that worker was frozen during
 * the call (the process, not the store, lost the time); a lock row already gone when it was read
 * only when the read was held up by a freeze of that worker or a database restart (the lease
 * may have run out and the work been claimed again meanwhile). Everything else is a violation,
 * and so is a run without a single claim to judge.
 */
export function checkNoExpiredLease(
  claims: readonly ClaimRecord[],
  freezes: readonly FreezeWindow[],
  outages: readonly Interval[],
): InvariantResult {
  const violations: string[] = [];
  let excused = 0;
  let cancelled = 0;
  let leastLeftMs: number | null = null;
  for (const claim of claims) {
    const ownFreezes = freezes.filter((freeze) => freeze.worker === claim.worker);
    if (claim.lockedUntilMs === null) {
      if (!claim.stillQueued) {
        cancelled += 1;
        continue;
      }
      if (overlaps(claim.fetchStartedAtMs, claim.observedAtMs, [...ownFreezes, ...outages])) {
        excused += 1;
        continue;
      }
    } else {
      const leftMs = claim.lockedUntilMs - claim.claimedAtMs;
      if (leftMs > 0) {
        leastLeftMs = Math.min(leastLeftMs ?? leftMs, leftMs);
        continue;
      }
      if (overlaps(claim.fetchStartedAtMs, claim.claimedAtMs, ownFreezes)) {
        excused += 1;
        continue;
      }
    }
    violations.push(
      `${claim.worker} got a ${claim.queue} lease on ${claim.schema}/${claim.instance} (${claim.path}) with ${
        claim.lockedUntilMs === null
          ? 'its lock already gone'
          : `${claim.lockedUntilMs - claim.claimedAtMs} ms left`
      }`,
    );
  }
  if (claims.length === 0) violations.push('no claim was observed: there was nothing to judge');
  return invariantResult(
    'no-expired-lease',
    `${claims.length} claimed leases judged at hand-out, ${violations.length} already expired`,
    {
      claims: claims.length,
      orchestratorClaims: claims.filter((claim) => claim.queue === 'orchestrator').length,
      workerClaims: claims.filter((claim) => claim.queue === 'worker').length,
      leastLeaseLeftMs: leastLeftMs,
      excusedByFreezeOrRestart: excused,
      cancelledBeforeRead: cancelled,
    },
    violations,
  );
}
