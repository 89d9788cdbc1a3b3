import { Client, Runtime, type OrchestrationContext, type RuntimeOptions } from '@duro/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

// With `activityHandoff` (the default), a runtime's batch of turns has the activities it schedules
// written claimed for the runtime's own worker slots, which run them without fetching them
// (duro migration 10). What the slots have no room for is fetched as usual.
const database = useTestDatabase();
const runtimes: Runtime[] = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown(2_000)));
});

const fanOut = function* (ctx: OrchestrationContext, count: unknown) {
  const tasks = Array.from({ length: Number(count) }, (_, index) =>
    ctx.scheduleActivity('Echo', index),
  );
  return (yield ctx.all(tasks)) as unknown;
};

/** The fan-out's output for five activities: each task's outcome, in order. */
const ECHOES = [0, 1, 2, 3, 4].map((index) => ({ ok: `echo ${index}` }));

/**
 * Runs a fan-out of `count` activities on a runtime with `options`, and returns its output and
 * how many activities the worker slots fetched.
 */
async function runFanOut(
  provider: PostgresProvider,
  count: number,
  options: RuntimeOptions,
): Promise<{ output: unknown; fetched: number }> {
  let fetched = 0;
  const fetchWorkItems: PostgresProvider['fetchWorkItems'] = async (...args) => {
    const items = await provider.fetchWorkItems(...args);
    fetched += items.length;
    return items;
  };
  // Every other call goes to the provider itself, whose methods use its private fields.
  const counting = new Proxy(provider, {
    get(target, property) {
      if (property === 'fetchWorkItems') return fetchWorkItems;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  const runtime = new Runtime(counting, {
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

describe('activities handed to the runtime that scheduled them', () => {
  it('run without a fetch when the worker slots have room', async () => {
    const provider = await database.newProvider({}, 'handoff');
    const result = await runFanOut(provider, 5, { workerConcurrency: 1, workerBatchSize: 10 });
    expect(result).toEqual({ output: ECHOES, fetched: 0 });
    const left = await database.query(`SELECT 1 FROM "${provider.schema}".worker_queue`);
    expect(left).toHaveLength(0);
  });

  it('are fetched beyond the room the slots have', async () => {
    const provider = await database.newProvider({}, 'handoffroom');
    const result = await runFanOut(provider, 5, { workerConcurrency: 1, workerBatchSize: 2 });
    expect(result.output).toEqual(ECHOES);
    expect(result.fetched).toBe(3);
  });

  it('are all fetched with activityHandoff off', async () => {
    const provider = await database.newProvider({}, 'nohandoff');
    const result = await runFanOut(provider, 5, {
      workerConcurrency: 1,
      workerBatchSize: 10,
      activityHandoff: false,
    });
    expect(result).toEqual({ output: ECHOES, fetched: 5 });
  });
});
