import { Client } from '@duro/core';
import { SqliteProvider } from '@duro/provider-sqlite';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirectory } from './support/temp-directory.js';
import { startWorkerProcess } from './support/worker-processes.js';

const directory = useTempDirectory('processes');
const INSTANCES = 60;

describe('several processes on one file', () => {
  it('two worker processes drain one file together and every instance completes once', async () => {
    const file = join(directory, 'shared.db');
    const provider = await SqliteProvider.open(file);
    const workers = await Promise.all([startWorkerProcess(file), startWorkerProcess(file)]);
    const client = new Client(provider);
    const instances = Array.from({ length: INSTANCES }, (_, index) => `tally-${index}`);
    let records: string[][];
    try {
      for (const instance of instances)
        await client.startOrchestration(instance, 'Tally', instance);
      for (const instance of instances) {
        const status = await client.waitForOrchestration(instance, 60_000);
        expect(status.output, instance).toBe(`${instance}:1 ${instance}:2`);
      }
    } finally {
      records = await Promise.all(workers.map((worker) => worker.stop()));
    }
    for (const instance of instances) {
      const history = await provider.readHistory(instance);
      const ends = history.filter(({ kind }) => kind.type === 'OrchestrationCompleted');
      expect(ends, instance).toHaveLength(1);
    }
    // Each activity ran once, in one of the two processes, and both took part.
    expect(records.every((ran) => ran.length > 0)).toBe(true);
    expect(records.flat().sort()).toEqual(
      instances.flatMap((instance) => [`${instance}:1`, `${instance}:2`]).sort(),
    );
    await provider.close();
  });
});
