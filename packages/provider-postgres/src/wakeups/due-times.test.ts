import { describe, expect, it } from 'vitest';
import { QueueDueTimesCache } from './due-times.js';

/** A cache on a clock the test sets; it never reads (these tests use only noted times). */
function cacheAt(startMs: number): { cache: QueueDueTimesCache; setNow: (ms: number) => void } {
  let nowMs = startMs;
  const cache = new QueueDueTimesCache({
    nowMs: () => nowMs,
    read: () => Promise.reject(new Error('no database in this test')),
  });
  return { cache, setNow: (ms) => (nowMs = ms) };
}

describe('QueueDueTimesCache', () => {
  it('tells a fetch that looked before a noted time came due to look again', () => {
    const { cache, setNow } = cacheAt(1_000);
    cache.note(1_050);
    expect(cache.cameDueSince(1_010, null)).toBe(false);
    setNow(1_060);
    expect(cache.cameDueSince(1_010, null)).toBe(true);
    expect(cache.cameDueSince(1_055, null)).toBe(false);
  });

  it('keeps a time noted after it passed, for a fetch that looked before it', () => {
    // A turn commit returns after the timer it wrote came due, while a fetch that its
    // notification woke had looked a moment too early.
    const { cache } = cacheAt(1_000);
    cache.note(995);
    expect(cache.cameDueSince(990, null)).toBe(true);
    expect(cache.cameDueSince(996, null)).toBe(false);
    expect(cache.nextDueMs(null)).toBeNull();
  });

  it('forgets passed times before future ones when it holds too many', () => {
    const { cache } = cacheAt(100_000);
    cache.note(100_500);
    for (let ms = 99_000; ms < 99_400; ms++) cache.note(ms);
    expect(cache.nextDueMs(null)).toBe(100_500);
    expect(cache.cameDueSince(99_390, null)).toBe(true);
  });

  it('does not keep a time from longer ago than any fetch lasts', () => {
    const { cache } = cacheAt(100_000);
    cache.note(30_000);
    expect(cache.cameDueSince(20_000, null)).toBe(false);
  });
});
