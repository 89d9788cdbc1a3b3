// Child process of runtime-crash-recovery.test.ts: one worker node running a duro Runtime on a
// test schema, as a separate deployment would (it imports the built packages).
//
//   node runtime-worker.mjs <url> <schema> <role> <signal-dir>
//
// Roles:
//   finish            runs every step to the end;
//   hang-in-activity  runs step 1, then hangs inside step 2 (after signalling `step-2-started`);
//   hang-in-turn      blocks its event loop inside the turn that receives step 1's result (after
//                     signalling `turn-started`), so that turn is never acked;
//   die-after-ack     kills itself with SIGKILL as soon as the acknowledgement of step 1's result
//                     has returned.
// Every run of a step appends `step <n>` to the file `runs` in the signal folder. It sends
// `started` over IPC once polling, and shuts down on an IPC `shutdown` message.
import { appendFileSync, writeFileSync } from 'node:fs';
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

/** Whether an acknowledgement carries step 1's result. */
const isStepOneResult = (ack) =>
  ack.completion?.type === 'ActivityCompleted' &&
  JSON.parse(ack.completion.result).startsWith('step 1 ');

/** `provider`, killing this process the moment an acknowledgement of step 1's result returned. */
function dyingAfterStepOneAck(target) {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      if (property !== 'ackWorkItems' && property !== 'ackWorkItem') return value.bind(object);
      return async (...args) => {
        const result = await value.apply(object, args);
        const acks =
          property === 'ackWorkItems' ? args[0] : [{ lockToken: args[0], completion: args[1] }];
        if (acks.some(isStepOneResult)) process.kill(process.pid, 'SIGKILL');
        return result;
      };
    },
  });
}
// Short locks, so a survivor takes over a dead worker's work within seconds.
const runtime = new Runtime(role === 'die-after-ack' ? dyingAfterStepOneAck(provider) : provider, {
  dispatcherPollIntervalMs: 10,
  dispatcherLongPollTimeoutMs: 200,
  orchestratorLockTimeoutMs: 1_500,
  workerLockTimeoutMs: 1_500,
  logLevel: 'warn',
});

runtime.registerActivity('Step', async (_ctx, step) => {
  appendFileSync(join(signalDir, 'runs'), `step ${step}\n`);
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
