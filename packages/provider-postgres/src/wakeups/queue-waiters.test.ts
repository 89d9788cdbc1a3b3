import { describe, expect, it } from 'vitest';
import { QueueWaiters, type WaitScope } from './queue-waiters.js';

const runtime = (owner: string): WaitScope => ({
  key: 'default',
  sessionOwner: owner,
  sharesLooks: true,
});

function waitersOf(scopes: readonly WaitScope[]): { waiters: QueueWaiters; woken: string[] } {
  const waiters = new QueueWaiters();
  const woken: string[] = [];
  scopes.forEach((scope, index) => {
    waiters.add({ scope, wake: () => woken.push(`${index}:${scope.key}`) });
  });
  return { waiters, woken };
}

describe('QueueWaiters', () => {
  it('wakes the longest-waiting fetch of each scope, once', () => {
    const { waiters, woken } = waitersOf([
      runtime('a'),
      runtime('b'),
      { key: 'gpu', sessionOwner: null, sharesLooks: true },
    ]);
    waiters.wakeOnePerScope(1);
    expect(woken).toEqual(['0:default', '2:gpu']);
    waiters.wakeNext('default', 2);
    expect(woken).toEqual(['0:default', '2:gpu', '1:default']);
    expect(waiters.isEmpty).toBe(true);
  });

  it('leaves a wake-up for a scope nobody of which waits, taken once by a fetch from before it', () => {
    const { waiters, woken } = waitersOf([runtime('a')]);
    waiters.wakeNext('default', 1);
    waiters.wakeNext('default', 2);
    expect(woken).toEqual(['0:default']);
    expect(waiters.takePending('default', 2)).toBe(false); // started after it: saw its cause
    expect(waiters.takePending('default', 1)).toBe(true);
    expect(waiters.takePending('default', 1)).toBe(false);
    waiters.wakeOnePerScope(null);
    expect(waiters.takePending('default', 0)).toBe(false);
  });

  it('keeps the wake-ups of a scope none of whose fetches ever waited once it is told to', () => {
    const waiters = new QueueWaiters();
    waiters.wakeOnePerScope(1);
    expect(waiters.takePending('default', 0)).toBe(false); // an unknown scope keeps nothing
    waiters.keepWakeupsOf('default'); // a fetch of it found nothing more to claim
    waiters.wakeOnePerScope(2);
    expect(waiters.takePending('default', 1)).toBe(true);
  });

  it('wakes a session owner past the fetches before it, and a removed fetch never', () => {
    const first = runtime('a');
    const { waiters, woken } = waitersOf([first, runtime('b')]);
    waiters.wakeSessionOwner('b');
    waiters.wakeSessionOwner('c');
    expect(woken).toEqual(['1:default']);
    waiters.remove({ scope: first, wake: () => undefined });
    expect(waiters.isEmpty).toBe(false); // only the same waiter object is removed
    waiters.wakeAll();
    expect(woken).toEqual(['1:default', '0:default']);
    expect(waiters.isEmpty).toBe(true);
  });
});
