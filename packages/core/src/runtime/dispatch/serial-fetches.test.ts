import { describe, expect, it } from 'vitest';
import { SerialFetches } from './serial-fetches.js';

/** A fetch that notes its start in `started` and settles when the test says. */
function heldFetch(
  started: string[],
  name: string,
): { fetch: () => Promise<string[]>; release: (value: string[]) => void } {
  let release!: (value: string[]) => void;
  const settled = new Promise<string[]>((resolve) => (release = resolve));
  return {
    fetch: () => {
      started.push(name);
      return settled;
    },
    release,
  };
}

const nextTurnOfEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SerialFetches', () => {
  it('starts a fetch only once the one before it has settled, failed ones included', async () => {
    const fetches = new SerialFetches(new AbortController().signal);
    const started: string[] = [];
    const first = heldFetch(started, 'one');
    const one = fetches.run(first.fetch, []);
    const two = fetches.run(() => {
      started.push('two');
      return Promise.reject(new Error('connection lost'));
    }, []);
    const three = fetches.run(() => {
      started.push('three');
      return Promise.resolve(['c']);
    }, []);
    await nextTurnOfEventLoop();
    expect(started).toEqual(['one']);
    first.release(['a']);
    expect(await one).toEqual(['a']);
    await expect(two).rejects.toThrow('connection lost');
    expect(await three).toEqual(['c']);
    expect(started).toEqual(['one', 'two', 'three']);
  });

  it('sends no fetch whose turn comes after stop', async () => {
    const stop = new AbortController();
    const fetches = new SerialFetches(stop.signal);
    const started: string[] = [];
    const first = heldFetch(started, 'one');
    const second = heldFetch(started, 'two');
    const one = fetches.run(first.fetch, []);
    const two = fetches.run(second.fetch, []);
    await nextTurnOfEventLoop();
    stop.abort();
    first.release(['a']);
    expect(await one).toEqual(['a']);
    expect(await two).toEqual([]);
    expect(started).toEqual(['one']);
  });
});
