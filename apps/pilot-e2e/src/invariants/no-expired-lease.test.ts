import { describe, expect, it } from 'vitest';
import { checkNoExpiredLease } from './no-expired-lease.js';
import { claimRecord } from './outcomes.test-support.js';

describe('no-expired-lease', () => {
  it('passes when every claim came with time left on its lease', () => {
    const result = checkNoExpiredLease([claimRecord()], [], []);
    expect(result.passed).toBe(true);
    expect(result.figures.leastLeaseLeftMs).toBe(3_000);
  });

  it('fails on a lease handed out with no time left, naming the worker and instance', () => {
    const result = checkNoExpiredLease([claimRecord({ lockedUntilMs: 900 })], [], []);
    expect(result.passed).toBe(false);
    expect(result.violations[0]).toContain('main-w0 got a worker lease on s/session-0000');
    expect(result.violations[0]).toContain('-100 ms left');
  });

  it('fails on a lease whose lock row was already gone', () => {
    const result = checkNoExpiredLease([claimRecord({ lockedUntilMs: null })], [], []);
    expect(result.violations[0]).toContain('its lock already gone');
  });

  it('does not count an activity a turn cancelled (its row deleted) before its lease was read', () => {
    const cancelled = claimRecord({ lockedUntilMs: null, stillQueued: false });
    const result = checkNoExpiredLease([cancelled], [], []);
    expect(result.passed).toBe(true);
    expect(result.figures.cancelledBeforeRead).toBe(1);
  });

  it('excuses a claim that a freeze of the same worker held up, not one of another', () => {
    const expired = claimRecord({ lockedUntilMs: 900, fetchStartedAtMs: 500 });
    const own = { worker: 'main-w0', fromMs: 600, toMs: 700 };
    const other = { ...own, worker: 'main-w1' };
    expect(checkNoExpiredLease([expired], [own], []).passed).toBe(true);
    expect(checkNoExpiredLease([expired], [other], []).passed).toBe(false);
  });

  it('excuses a gone lock row only when a restart held up the read', () => {
    const gone = claimRecord({ lockedUntilMs: null, observedAtMs: 9_000 });
    expect(checkNoExpiredLease([gone], [], [{ fromMs: 2_000, toMs: 6_000 }]).passed).toBe(true);
    expect(checkNoExpiredLease([gone], [], [{ fromMs: 9_500, toMs: 9_900 }]).passed).toBe(false);
  });

  it('fails a run in which no claim was observed', () => {
    const result = checkNoExpiredLease([], [], []);
    expect(result.violations).toEqual(['no claim was observed: there was nothing to judge']);
  });
});
