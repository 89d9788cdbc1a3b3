import { describe, expect, it } from 'vitest';
import { checkClaimsObserved } from './claims-observed.js';
import { claimRecord } from './outcomes.test-support.js';

const CLAIMS = [
  claimRecord({ queue: 'orchestrator', path: 'batch', lockToken: 'o1' }),
  claimRecord({ path: 'batch', lockToken: 'w1' }),
  claimRecord({ path: 'handoff', lockToken: 'w2' }),
];

describe('claims-observed', () => {
  it('passes when the observer saw at least every claim the runtime took up, counting each path', () => {
    const result = checkClaimsObserved(CLAIMS, [{ worker: 'main-w0', turns: 1, activities: 2 }], 0);
    expect(result.passed, result.violations.join('\n')).toBe(true);
    expect(result.figures).toMatchObject({
      'orchestrator.batch': 1,
      'worker.batch': 1,
      'worker.handoff': 1,
    });
  });

  it('fails when a runtime took up more activities than were observed (a claim path went unwatched)', () => {
    const result = checkClaimsObserved(CLAIMS, [{ worker: 'main-w0', turns: 1, activities: 3 }], 0);
    expect(result.violations).toEqual([
      "main-w0's runtime took up 3 activities, the observer saw 2 claimed",
    ]);
  });

  it('fails when the audit log could not take a claim', () => {
    expect(checkClaimsObserved(CLAIMS, [], 1).violations).toEqual([
      '1 claims or lock records could not be written to the audit log',
    ]);
  });

  it('fails a run in which no claim was observed', () => {
    expect(checkClaimsObserved([], [], 0).passed).toBe(false);
  });
});
