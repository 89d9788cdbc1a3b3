import { describe, expect, it } from 'vitest';
import { BatchSlot } from './batch-slot.js';

describe('BatchSlot', () => {
  it('keeps room held for a claim from its own fetches until the claim settles', () => {
    const slot = new BatchSlot('work-0', 4);
    let finish = (): void => undefined;
    slot.run(() => new Promise<void>((resolve) => (finish = resolve)));

    expect(slot.reserveRoom(5)).toBe(3);
    expect(slot.fetchRoom).toBe(0);
    expect(slot.reserveRoom(1)).toBe(0);

    slot.releaseRoom(3);
    expect(slot.fetchRoom).toBe(3);
    finish();
  });

  it('wakes a fetch waiting for room when an activity ends or a claim gives room back', async () => {
    const slot = new BatchSlot('work-0', 1);
    let finish = (): void => undefined;
    slot.run(() => new Promise<void>((resolve) => (finish = resolve)));
    let woke = false;
    const waiting = slot.untilFetchRoom().then(() => (woke = true));

    await new Promise((resolve) => setImmediate(resolve));
    expect(woke).toBe(false);
    finish();
    await waiting;
    expect(woke).toBe(true);

    expect(slot.reserveRoom(1)).toBe(1);
    const afterClaim = slot.untilFetchRoom();
    slot.releaseRoom(1);
    await afterClaim;
    expect(slot.fetchRoom).toBe(1);
  });

  it("frees an activity's room when its work has finished, and is drained once it settled", async () => {
    const slot = new BatchSlot('work-0', 1);
    let settle = (): void => undefined;
    slot.run(async (finished) => {
      finished();
      await new Promise<void>((resolve) => (settle = resolve));
    });
    expect(slot.fetchRoom).toBe(1);
    let drained = false;
    const draining = slot.drained().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);

    settle();
    await draining;
    expect(drained).toBe(true);
  });
});
