import { Client, Runtime } from '@duro/core';
import { SqliteProvider } from '@duro/provider-sqlite';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirectory } from './support/temp-directory.js';
import { startWorkerProcess } from './support/worker-processes.js';

const directory = useTempDirectory('crash');
const INSTANCES = 1_000;
const quiet = () => undefined;

describe('a process killed mid-work', () => {
  it('loses nothing it acknowledged: every start it confirmed is there and finishes once', async () => {
    const file = join(directory, 'killed.db');
    // The child starts instances one by one while its runtime runs them; it is killed with
    // SIGKILL (no shutdown, no close) once it has seen twenty of them complete, with starts
    // still coming. SIGKILL leaves the operating system's page cache alone, so this checks that
    // nothing is held back in the process; synchronous = FULL covers a power loss on top.
    const worker = await startWorkerProcess(file, ['--start', String(INSTANCES)]);
    await worker.waitFor(
      (message) => message.type === 'completed' && message.instance === 'tally-20',
    );
    worker.child.kill('SIGKILL');
    await new Promise((resolve) => worker.child.once('exit', resolve));
    const started = worker.messages.flatMap((m) => (m.type === 'started' ? [m.instance] : []));
    const completed = worker.messages.flatMap((m) => (m.type === 'completed' ? [m.instance] : []));
    expect(started.length).toBeLessThan(INSTANCES);

    const provider = await SqliteProvider.open(file);
    try {
      const client = new Client(provider);
      for (const instance of completed) {
        expect((await client.getStatus(instance)).status, instance).toBe('Completed');
      }
      const runtime = new Runtime(provider, {
        logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
      });
      runtime.registerActivity('Record', async (_ctx, entry: string) => entry);
      runtime.registerOrchestration('Tally', function* (ctx, input: string) {
        const first = yield* ctx.scheduleActivity<string>('Record', `${input}:1`);
        const second = yield* ctx.scheduleActivity<string>('Record', `${input}:2`);
        return `${first} ${second}`;
      });
      await runtime.start();
      try {
        for (const instance of started) {
          const status = await client.waitForOrchestration(instance, 30_000);
          expect(status.output, instance).toBe(`${instance}:1 ${instance}:2`);
          const history = await provider.readHistory(instance);
          const ends = history.filter(({ kind }) => kind.type === 'OrchestrationCompleted');
          expect(ends, instance).toHaveLength(1);
        }
      } finally {
        await runtime.shutdown(1_000);
      }
    } finally {
      await provider.close();
    }
  });
});
