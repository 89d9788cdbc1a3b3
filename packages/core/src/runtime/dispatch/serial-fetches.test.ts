import { describe, expect, it } from 'vitest';
import { SerialFetches } from './serial-fetches.js';

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('SerialFetches', () => {
  it('starts a fetch only once the one before it has settled, failed ones included', async () => {
    const fetches = new SerialFetches(new AbortController().signal);
    const first = deferred<string[]>();
    const started: string[] = [];
    const one = fetches.run(() => {
      started.push('one');
      return first.promise;
    }, []);
    const two = fetches.run(() => {
      started.push('two');
      return Promise.reject(new Error('connection lost'));
    }, []);
    const three = fetches.run(() => {
      started.push('three');
      return Promise.resolve(['c']);
    }, []);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['one']);
    first.resolve(['a']);
    expect(await one).toEqual(['a']);
    await expect(two).rejects.toThrow('connection lost');
    expect(await three).toEqual(['c']);
    expect(started).toEqual(['one', 'two', 'three']);
  });

  it('sends no fetch whose turn comes after stop', async () => {
    const stop = new AbortController();
    const fetches = new SerialFetches(stop.signal);
    const first = deferred<string[]>();
    const started: string[] = [];
    const one = fetches.run(() => {
      started.push('one');
      return first.promise;
    }, []);
    const two = fetches.run(() => {
      started.push('two');
      return Promise.resolve(['b']);
    }, []);
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    first.resolve(['a']);
    expect(await one).toEqual(['a']);
    expect(await two).toEqual([]);
    expect(started).toEqual(['one']);
  });
});
