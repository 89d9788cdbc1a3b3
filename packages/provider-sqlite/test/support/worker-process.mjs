// One process of the multi-process tests: a duro runtime on the SQLite file given as argument,
// from the built package (as an application runs it), serving `Tally`: two `Record` activities
// in a row, each adding `<input>:<step>` to this process's log. Started with fork().
//
//   --start N   also starts instances tally-0 … tally-(N-1) one by one, 5 ms apart (so that a
//               kill lands while starts are still coming), sending {type:'started', instance}
//               once each start was acknowledged, and {type:'completed', instance} once each
//               one was seen completed.
//
// Sends {type:'ready'} when serving; on 'stop' shuts down, sends {type:'stopped', records} with
// its log and exits.
import { Client, Runtime } from '@duro/core';
import { SqliteProvider } from '@duro/provider-sqlite';

const [file, flag, count] = process.argv.slice(2);
const provider = await SqliteProvider.open(file);
const records = [];
const quiet = () => undefined;
// Short locks, so work a killed process held is taken over within seconds.
const runtime = new Runtime(provider, {
  dispatcherPollIntervalMs: 10,
  orchestratorLockTimeoutMs: 2_000,
  workerLockTimeoutMs: 2_000,
  logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
});
runtime.registerActivity('Record', async (_ctx, entry) => {
  records.push(entry);
  await new Promise((resolve) => setTimeout(resolve, 10));
  return entry;
});
runtime.registerOrchestration('Tally', function* (ctx, input) {
  const first = yield ctx.scheduleActivity('Record', `${input}:1`);
  const second = yield ctx.scheduleActivity('Record', `${input}:2`);
  return `${first} ${second}`;
});
await runtime.start();
process.send({ type: 'ready' });

process.on('message', (message) => {
  if (message !== 'stop') return;
  void runtime
    .shutdown(1_000)
    .then(() => provider.close())
    .then(() => process.send({ type: 'stopped', records }, () => process.exit(0)));
});

if (flag === '--start') {
  const client = new Client(provider);
  for (let index = 0; index < Number(count); index += 1) {
    const instance = `tally-${index}`;
    await client.startOrchestration(instance, 'Tally', instance);
    process.send({ type: 'started', instance });
    void client
      .waitForOrchestration(instance, 60_000)
      .then(() => process.send({ type: 'completed', instance }));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
