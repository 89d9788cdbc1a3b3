import type { Runtime } from '@duro/core';
import { afterEach, describe, expect, it } from 'vitest';
import { echoes, runFanOut } from './support/fan-out-runtime.js';
import { useTestDatabase } from './support/test-database.js';

// With `activityHandoff` (the default), a runtime's batch of turns has the activities it schedules
// written claimed for the runtime's own worker, which runs them without fetching them (duro
// migration 10), when the worker has free places for all of them. Otherwise they are fetched.
const database = useTestDatabase();
const runtimes: Runtime[] = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown(2_000)));
});

describe('activities handed to the runtime that scheduled them', () => {
  it('run without a fetch when the worker has a free place for each', async () => {
    const provider = await database.newProvider({}, 'handoff');
    const result = await runFanOut(
      provider,
      5,
      { workerConcurrency: 5 },
      'fetchWorkItems',
      runtimes,
    );
    expect(result).toEqual({ output: echoes(5), fetched: 0 });
    const left = await database.query(`SELECT 1 FROM "${provider.schema}".worker_queue`);
    expect(left).toHaveLength(0);
  });

  it('are all fetched when the worker has fewer free places than the turns schedule', async () => {
    const provider = await database.newProvider({}, 'handoffroom');
    const result = await runFanOut(
      provider,
      5,
      { workerConcurrency: 4 },
      'fetchWorkItems',
      runtimes,
    );
    expect(result).toEqual({ output: echoes(5), fetched: 5 });
  });

  it('are all fetched with activityHandoff off', async () => {
    const provider = await database.newProvider({}, 'nohandoff');
    const result = await runFanOut(
      provider,
      5,
      { workerConcurrency: 5, activityHandoff: false },
      'fetchWorkItems',
      runtimes,
    );
    expect(result).toEqual({ output: echoes(5), fetched: 5 });
  });
});
