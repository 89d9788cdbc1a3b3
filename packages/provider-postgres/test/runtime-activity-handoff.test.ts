import type { Runtime } from '@duro/core';
import { afterEach, describe, expect, it } from 'vitest';
import { echoes, runFanOut } from './support/fan-out-runtime.js';
import { useTestDatabase } from './support/test-database.js';

// With `activityHandoff` (the default), a runtime's batch of turns has the activities it schedules
// written claimed for the runtime's own worker slots, which run them without fetching them
// (duro migration 10). What the slots have no room for is fetched as usual.
const database = useTestDatabase();
const runtimes: Runtime[] = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown(2_000)));
});

describe('activities handed to the runtime that scheduled them', () => {
  it('run without a fetch when the worker slots have room', async () => {
    const provider = await database.newProvider({}, 'handoff');
    const result = await runFanOut(
      provider,
      5,
      { workerConcurrency: 1, workerBatchSize: 10 },
      'fetchWorkItems',
      runtimes,
    );
    expect(result).toEqual({ output: echoes(5), fetched: 0 });
    const left = await database.query(`SELECT 1 FROM "${provider.schema}".worker_queue`);
    expect(left).toHaveLength(0);
  });

  it('are fetched beyond the room the slots have', async () => {
    const provider = await database.newProvider({}, 'handoffroom');
    const result = await runFanOut(
      provider,
      5,
      { workerConcurrency: 1, workerBatchSize: 2 },
      'fetchWorkItems',
      runtimes,
    );
    expect(result.output).toEqual(echoes(5));
    expect(result.fetched).toBe(3);
  });

  it('are all fetched with activityHandoff off', async () => {
    const provider = await database.newProvider({}, 'nohandoff');
    const result = await runFanOut(
      provider,
      5,
      { workerConcurrency: 1, workerBatchSize: 10, activityHandoff: false },
      'fetchWorkItems',
      runtimes,
    );
    expect(result).toEqual({ output: echoes(5), fetched: 5 });
  });
});
