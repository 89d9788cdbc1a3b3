import { describe, expect, it } from 'vitest';
import { healthyOutcomes } from './outcomes.test-support.js';
import { checkSessionsComplete } from './sessions-complete.js';

describe('sessions-complete', () => {
  it('passes when every planned instance completed as planned', () => {
    expect(checkSessionsComplete(healthyOutcomes(), [], []).passed).toBe(true);
  });

  it('fails on a failed, a still running or a missing instance', () => {
    for (const status of ['Failed', 'Running', 'Missing']) {
      const [root, child] = healthyOutcomes();
      const result = checkSessionsComplete([root!, { ...child!, status, summary: null }], [], []);
      expect(result.passed).toBe(false);
      expect(result.violations[0]).toContain(`is ${status}`);
    }
  });

  it('fails when a child did not send all its updates or a root never saw its close', () => {
    const [root, child] = healthyOutcomes();
    const result = checkSessionsComplete(
      [
        { ...root!, summary: { ...root!.summary!, closed: false } },
        { ...child!, summary: { ...child!.summary!, updatesSent: 1 } },
      ],
      [],
      [],
    );
    expect(result.violations).toEqual([
      's/session-0000 completed without its close',
      's/session-0000.c0 sent 1 of 2 updates',
    ]);
  });

  it('fails when a digest sub-orchestration of a session did not complete', () => {
    const digests = [
      { name: 's/session-0000:digest-0', status: 'Completed' },
      { name: 's/session-0000:digest-4', status: 'Running' },
    ];
    expect(checkSessionsComplete(healthyOutcomes(), digests, []).violations).toEqual([
      's/session-0000:digest-4 is Running',
    ]);
  });

  it('fails when nothing was planned', () => {
    expect(checkSessionsComplete([], [], []).passed).toBe(false);
  });

  it('fails when the store holds an instance no plan names', () => {
    expect(checkSessionsComplete(healthyOutcomes(), [], ['s/stray']).passed).toBe(false);
  });
});
