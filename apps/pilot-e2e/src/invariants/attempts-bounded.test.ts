import type { MetricsSnapshot } from '@duro/core';
import { describe, expect, it } from 'vitest';
import { checkAttemptsBounded } from './attempts-bounded.js';
import { claimRecord } from './outcomes.test-support.js';

const QUIET = { orchPoison: 0, activityPoison: 0 } as MetricsSnapshot;

describe('attempts-bounded', () => {
  it('passes while redeliveries stay under the bound and nothing is poisoned', () => {
    expect(checkAttemptsBounded([claimRecord({ attempt: 3 })], QUIET, 6).passed).toBe(true);
  });

  it('fails on a message claimed past the bound', () => {
    const result = checkAttemptsBounded([claimRecord({ attempt: 78_874 })], QUIET, 6);
    expect(result.violations[0]).toContain('reached attempt 78874');
  });

  it('fails when a runtime poisoned a message', () => {
    const result = checkAttemptsBounded([claimRecord()], { ...QUIET, activityPoison: 1 }, 6);
    expect(result.violations).toEqual(['1 activity message(s) poisoned']);
  });

  it('fails a run in which no claim was observed', () => {
    expect(checkAttemptsBounded([], QUIET, 6).passed).toBe(false);
  });
});
