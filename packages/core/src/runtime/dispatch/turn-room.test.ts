import { describe, expect, it } from 'vitest';
import { TurnRoom } from './turn-room.js';

describe('TurnRoom', () => {
  it('lets claims take only what the slots leave under the limit', () => {
    const room = new TurnRoom(8);
    room.add(5);
    expect(room.take(8)).toBe(3);
    expect(room.take(1)).toBe(0);
    room.give(4);
    expect(room.take(8)).toBe(4);
  });

  it("keeps claims out while the slots' batches fill the limit", () => {
    const room = new TurnRoom(4);
    room.add(6);
    expect(room.take(2)).toBe(0);
    room.give(3);
    expect(room.take(2)).toBe(1);
  });
});
