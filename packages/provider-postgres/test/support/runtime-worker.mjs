// Child process of runtime-crash-recovery.test.ts: one worker node running a duro Runtime on a
// test schema, as a separate deployment would (it imports the built packages).
//
//   node runtime-worker.mjs <url> <schema> <role> <signal-dir>
//
// Roles:
//   finish            runs every step to the end;
//   hang-in-activity  runs step 1, then hangs inside step 2 (after signalling `step-2-started`);
//   hang-in-turn      blocks its event loop inside the turn that receives step 1's result (after
//                     signalling `turn-started`), so that turn is never acked.
// It sends `started` over IPC once polling, and shuts down on an IPC `shutdown` message.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

const [url, schema, role, signalDir] = process.argv.slice(2);
const PIPELINE_STEPS = 3;
const signal = (name) => writeFileSync(join(signalDir, name), `${process.pid}\n`);

const provider = await PostgresProvider.connectWithSchema(url, schema, {
  migrate: false,
  poolSize: 4,
  applicationName: `duro_worker_${role}`,
});
// Short locks, so a survivor takes over a dead worker's work within seconds.
const runtime = new Runtime(provider, {
  dispatcherPollIntervalMs: 10,
  dispatcherLongPollTimeoutMs: 200,
  orchestratorLockTimeoutMs: 1_500,
  workerLockTimeoutMs: 1_500,
  logLevel: 'warn',
});

runtime.registerActivity('Step', async (_ctx, step) => {
  if (role === 'hang-in-activity' && step === 2) {
    signal('step-2-started');
    return new Promise(() => undefined);
  }
  return `step ${step} by ${role}`;
});

runtime.registerOrchestration('Pipeline', function* (ctx) {
  const results = [];
  for (let step = 1; step <= PIPELINE_STEPS; step += 1) {
    results.push(yield ctx.scheduleActivity('Step', step));
    if (role === 'hang-in-turn' && step === 1) {
      signal('turn-started');
      // Blocks the whole process, as a crash mid-turn would: no ack, no lock renewal.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    }
  }
  return results;
});

await runtime.start();
process.on('message', (message) => {
  if (message !== 'shutdown') return;
  void runtime
    .shutdown(5_000)
    .then(() => provider.close())
    .then(() => process.exit(0));
});
process.send?.('started');
