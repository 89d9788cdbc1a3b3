import { describe, expect, it } from 'vitest';
import { IntervalUnion } from './interval-union.js';

describe('IntervalUnion', () => {
  it('counts overlapping spans once', () => {
    const union = IntervalUnion.of([
      { fromMs: 0, toMs: 10 },
      { fromMs: 5, toMs: 20 },
      { fromMs: 30, toMs: 40 },
    ]);
    expect(union.coveredMs(0, 100)).toBe(30);
    expect(union.coveredMs(15, 35)).toBe(10);
    expect(union.coveredMs(20, 30)).toBe(0);
  });

  it('cuts holes out of the spans it covers', () => {
    const union = IntervalUnion.of([{ fromMs: 0, toMs: 100 }]).without([
      { fromMs: 10, toMs: 20 },
      { fromMs: 90, toMs: 200 },
    ]);
    expect(union.intervals()).toEqual([
      { fromMs: 0, toMs: 10 },
      { fromMs: 20, toMs: 90 },
    ]);
  });
});
