import { describe, expect, it } from 'vitest';
import { checkHistoryBounded } from './history-bounded.js';

const SMALL = { schema: 's', instance: 'session-0000', executionId: 3, events: 120, bytes: 30_000 };

describe('history-bounded', () => {
  it('passes when every execution stays within the bounds', () => {
    expect(checkHistoryBounded({ largest: [SMALL], executions: 9 }, 2_000, 800_000).passed).toBe(
      true,
    );
  });

  it('fails on an execution that grew past either bound', () => {
    const byEvents = checkHistoryBounded(
      { largest: [{ ...SMALL, events: 2_001 }], executions: 1 },
      2_000,
      800_000,
    );
    const byBytes = checkHistoryBounded(
      { largest: [{ ...SMALL, bytes: 900_000 }], executions: 1 },
      2_000,
      800_000,
    );
    expect(byEvents.violations).toEqual([
      's/session-0000 execution 3 holds 2001 events, 30000 bytes',
    ]);
    expect(byBytes.passed).toBe(false);
  });
});
