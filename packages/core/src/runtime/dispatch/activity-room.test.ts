import { describe, expect, it } from 'vitest';
import { ActivityRoom } from './activity-room.js';

describe('ActivityRoom', () => {
  it('hands out no more places than its capacity, lowest index first', () => {
    const room = new ActivityRoom(3);
    expect(room.take(2).map((place) => place.index)).toEqual([0, 1]);
    expect(room.take(5).map((place) => place.index)).toEqual([2]);
    expect(room.take(1)).toEqual([]);
    expect(room.free).toBe(0);
  });

  it('takes a released place back once, and hands it out again', () => {
    const room = new ActivityRoom(2);
    const [first] = room.take(1);
    first?.release();
    first?.release();
    expect(room.free).toBe(2);
    expect(room.take(2).map((place) => place.index)).toEqual([0, 1]);
  });

  it('keeps a place held by work until the work settles, whatever release says', async () => {
    const room = new ActivityRoom(1);
    const [place] = room.take(1);
    let finish: () => void = () => undefined;
    const work = new Promise<void>((resolve) => (finish = resolve));
    place?.holdUntil(work);
    place?.release();
    expect(room.free).toBe(0);
    finish();
    await work;
    await Promise.resolve();
    expect(room.free).toBe(1);
  });

  it('wakes a wait for a free place when one is released, or when stopped', async () => {
    const room = new ActivityRoom(1);
    const [place] = room.take(1);
    const waited = room.untilFree(new AbortController().signal);
    place?.release();
    await waited;
    expect(room.free).toBe(1);

    room.take(1);
    const stop = new AbortController();
    const stopped = room.untilFree(stop.signal);
    stop.abort();
    await stopped;
    expect(room.free).toBe(0);
  });
});
