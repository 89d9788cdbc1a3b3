import { describe, expect, it } from 'vitest';
import type { LeaseFigures } from '../observe/lease-stats.js';
import { checkNoExpiredLease } from './no-expired-lease.js';
import { auditRecord } from './outcomes.test-support.js';

const FIGURES: LeaseFigures = {
  fetches: 10,
  minRemainingMs: 2_900,
  belowHalf: 0,
  expired: 0,
  fetchMsTotal: 50,
  fetchMsMax: 9,
};
const LEASES = { orchestrator: FIGURES, worker: FIGURES };

describe('no-expired-lease', () => {
  it('passes when no fetch handed out an expired lease', () => {
    expect(
      checkNoExpiredLease([auditRecord({ kind: 'redelivery', value: 2 })], [], LEASES).passed,
    ).toBe(true);
  });

  it('fails on a lease handed out with no time left', () => {
    const result = checkNoExpiredLease(
      [auditRecord({ kind: 'expired-lease', value: -1_658 })],
      [],
      LEASES,
    );
    expect(result.passed).toBe(false);
    expect(result.violations[0]).toContain('-1658 ms left');
  });

  it('fails on a lease whose lock row was already gone', () => {
    const result = checkNoExpiredLease(
      [auditRecord({ kind: 'expired-lease', value: null })],
      [],
      LEASES,
    );
    expect(result.violations[0]).toContain('its lock already gone');
  });

  it('excuses an observation that spans a freeze of the same worker, not of another', () => {
    const expired = auditRecord({
      kind: 'expired-lease',
      value: -500,
      startedAtMs: 1_000,
      endedAtMs: 7_000,
    });
    const own = { worker: 'main-w0', fromMs: 2_000, toMs: 6_000 };
    const other = { ...own, worker: 'main-w1' };
    expect(checkNoExpiredLease([expired], [own], LEASES).passed).toBe(true);
    expect(checkNoExpiredLease([expired], [other], LEASES).passed).toBe(false);
  });
});
