import { describe, expect, it } from 'vitest';
import { diffLines, hasChanges } from './line-diff.js';

const show = (before: string[], after: string[]): string[] =>
  diffLines(before, after).map((l) => `${l.mark}${l.text}`);

describe('line diff', () => {
  it('keeps every line of both sides, removals before additions', () => {
    expect(show(['a', 'b', 'c'], ['a', 'x', 'c', 'd'])).toEqual([' a', '-b', '+x', ' c', '+d']);
  });

  it('reports no change for equal texts', () => {
    expect(hasChanges(diffLines(['a', 'b'], ['a', 'b']))).toBe(false);
    expect(show([], ['new'])).toEqual(['+new']);
    expect(show(['old'], [])).toEqual(['-old']);
  });
});
