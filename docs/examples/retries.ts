import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

let calls = 0;
runtime.registerActivity('CallFlakyService', async (_ctx, request: string) => {
  calls += 1;
  if (calls < 3) throw new Error(`service unavailable (call ${calls})`);
  return `${request}: ok after ${calls} calls`;
});

runtime.registerOrchestration('Resilient', function* (ctx, request: string) {
  // Up to 5 attempts, 100 ms then 200 ms ... apart (durable timers), each attempt at most 10 s.
  return yield* ctx.scheduleActivityWithRetry<string>('CallFlakyService', request, {
    maxAttempts: 5,
    backoff: 'exponential',
    timeoutMs: 10_000,
  });
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('resilient-1', 'Resilient', 'sync');
const status = await client.waitForOrchestration('resilient-1');
console.log(status.output); // sync: ok after 3 calls

await runtime.shutdown();
assert.equal(status.output, 'sync: ok after 3 calls');
