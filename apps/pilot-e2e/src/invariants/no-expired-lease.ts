import type { FreezeWindow } from '../chaos/chaos-context.js';
import type { AuditRecord } from '../observe/audit-log.js';
import type { LeaseFigures } from '../observe/lease-stats.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';

function overlapsFreeze(record: AuditRecord, freezes: readonly FreezeWindow[]): boolean {
  return freezes.some(
    (freeze) =>
      freeze.worker === record.worker &&
      record.startedAtMs <= freeze.toMs &&
      record.endedAtMs >= freeze.fromMs,
  );
}

/**
 * No fetch handed out a lease that had already run out. Every fetched item's lock row is read
 * the moment the fetch returns; an observation whose span overlaps a freeze of that very worker
 * is excused (the process, not the store, lost the time), everything else is a violation.
 */
export function checkNoExpiredLease(
  audit: readonly AuditRecord[],
  freezes: readonly FreezeWindow[],
  leases: Readonly<Record<'orchestrator' | 'worker', LeaseFigures>>,
): InvariantResult {
  const expired = audit.filter((record) => record.kind === 'expired-lease');
  const excused = expired.filter((record) => overlapsFreeze(record, freezes));
  const violations = expired
    .filter((record) => !overlapsFreeze(record, freezes))
    .map(
      (record) =>
        `${record.worker} got a ${record.queue} lease on ${record.schema}/${record.instance} with ${
          record.value === null ? 'its lock already gone' : `${record.value} ms left`
        } (${record.detail})`,
    );
  const fetches = leases.orchestrator.fetches + leases.worker.fetches;
  return invariantResult(
    'no-expired-lease',
    `${fetches} fetched leases observed, ${violations.length} already expired`,
    {
      orchestratorFetches: leases.orchestrator.fetches,
      workerFetches: leases.worker.fetches,
      minOrchestratorLeaseLeftMs: leases.orchestrator.minRemainingMs,
      minWorkerLeaseLeftMs: leases.worker.minRemainingMs,
      leasesBelowHalf: leases.orchestrator.belowHalf + leases.worker.belowHalf,
      expiredDuringFreeze: excused.length,
    },
    violations,
  );
}
