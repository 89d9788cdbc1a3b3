import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

const provider = await PostgresProvider.connect(process.env.DATABASE_URL!);

// Three activities at once at most, whatever the fan-out: for an API that allows three calls.
const runtime = new Runtime(provider, {
  logLevel: 'warn',
  workerConcurrency: 3, // the most activities running at once in this runtime (default 8)
  workerBatchSize: 3, // the most activities one fetch claims (default: workerConcurrency)
  orchestrationConcurrency: 2, // dispatcher slots for turns (default 4)
  orchestrationBatchSize: 8, // the most turns one slot claims and commits together (default 8)
});

let running = 0;
let most = 0;
runtime.registerActivity('CallPartnerApi', async (_ctx, n: number) => {
  running += 1;
  most = Math.max(most, running);
  await sleep(20);
  running -= 1;
  return n * 2;
});
runtime.registerOrchestration('FanOut', function* (ctx, count: number) {
  const calls = Array.from({ length: count }, (_, n) =>
    ctx.scheduleActivity<number>('CallPartnerApi', n),
  );
  const results = yield* ctx.all(calls);
  return results.reduce((sum, result) => sum + (result.ok ?? 0), 0);
});
await runtime.start();

const client = new Client(provider);
await client.startOrchestration('fan-out-1', 'FanOut', 12);
const status = await client.waitForOrchestration('fan-out-1');
console.log(status.output, `at most ${most} at once`); // 132 at most 3 at once

await runtime.shutdown();
await provider.close();
assert.equal(status.output, 132);
assert.ok(most <= 3);
