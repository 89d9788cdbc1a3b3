import type { MetricsSnapshot } from '@duro/core';
import { describe, expect, it } from 'vitest';
import { checkAttemptsBounded } from './attempts-bounded.js';
import { auditRecord } from './outcomes.test-support.js';

const QUIET = { orchPoison: 0, activityPoison: 0 } as MetricsSnapshot;

describe('attempts-bounded', () => {
  it('passes while redeliveries stay under the bound and nothing is poisoned', () => {
    expect(
      checkAttemptsBounded([auditRecord({ kind: 'redelivery', value: 3 })], QUIET, 6).passed,
    ).toBe(true);
  });

  it('fails on a message fetched past the bound', () => {
    const result = checkAttemptsBounded(
      [auditRecord({ kind: 'redelivery', value: 78_874 })],
      QUIET,
      6,
    );
    expect(result.violations[0]).toContain('reached attempt 78874');
  });

  it('fails when a runtime poisoned a message', () => {
    const result = checkAttemptsBounded([], { ...QUIET, activityPoison: 1 }, 6);
    expect(result.violations).toEqual(['1 activity message(s) poisoned']);
  });
});
