import { Client, Runtime, type OrchestrationContext, type RuntimeOptions } from '@duro/core';
import type { PostgresProvider } from '../../src/index.js';

/** The batch fetches a fan-out's runtime may be counted by. */
type CountedFetch = 'fetchWorkItems' | 'fetchOrchestrationItems';

const fanOut = function* (ctx: OrchestrationContext, count: unknown) {
  const tasks = Array.from({ length: Number(count) }, (_, index) =>
    ctx.scheduleActivity('Echo', index),
  );
  return (yield ctx.all(tasks)) as unknown;
};

/** A fan-out's output for `count` activities: each task's outcome, in order. */
export const echoes = (count: number): { ok: string }[] =>
  Array.from({ length: count }, (_, index) => ({ ok: `echo ${index}` }));

/**
 * Runs a fan-out of `count` activities on a runtime with `options`, and returns its output and
 * how many items the runtime's `counted` fetch returned. The runtime is pushed to `runtimes`, for
 * the test to shut down.
 */
export async function runFanOut(
  provider: PostgresProvider,
  count: number,
  options: RuntimeOptions,
  counted: CountedFetch,
  runtimes: Runtime[],
): Promise<{ output: unknown; fetched: number }> {
  let fetched = 0;
  const fetch = provider[counted].bind(provider) as (...args: unknown[]) => Promise<unknown[]>;
  const counting = async (...args: unknown[]): Promise<unknown[]> => {
    const items = await fetch(...args);
    fetched += items.length;
    return items;
  };
  // Every other call goes to the provider itself, whose methods use its private fields.
  const watched = new Proxy(provider, {
    get(target, property) {
      if (property === counted) return counting;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  const runtime = new Runtime(watched, {
    dispatcherPollIntervalMs: 10,
    dispatcherLongPollTimeoutMs: 200,
    logLevel: 'silent',
    ...options,
  });
  runtime.registerOrchestration('FanOut', fanOut);
  runtime.registerActivity('Echo', async (_ctx, index) => `echo ${String(index)}`);
  await runtime.start();
  runtimes.push(runtime);
  const client = new Client(provider);
  await client.startOrchestration('fan', 'FanOut', count);
  const output = await client.waitForOrchestrationTyped('fan', 20_000);
  return { output, fetched };
}
