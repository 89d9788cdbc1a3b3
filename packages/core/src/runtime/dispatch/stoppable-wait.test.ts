import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { unlessStopped } from './stoppable-wait.js';

describe('unlessStopped', () => {
  it('leaves no listener on a signal that outlives the work', async () => {
    const runtimeHalt = new AbortController();
    const activity = new AbortController();
    for (let i = 0; i < 100; i++) {
      await unlessStopped(Promise.resolve({ i }), [activity.signal, runtimeHalt.signal]);
    }
    expect(getEventListeners(runtimeHalt.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(activity.signal, 'abort')).toHaveLength(0);
  });

  it('gives the work its value, or undefined once any signal fires first', async () => {
    const halt = new AbortController();
    expect(await unlessStopped(Promise.resolve({ done: true }), [halt.signal])).toEqual({
      done: true,
    });
    const never = new Promise<object>(() => undefined);
    const waiting = unlessStopped(never, [new AbortController().signal, halt.signal]);
    halt.abort();
    expect(await waiting).toBeUndefined();
    expect(await unlessStopped(never, [halt.signal])).toBeUndefined();
  });
});
