import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

runtime.registerActivity('SendReminder', async (_ctx, n: number) => `reminder ${n} sent`);

runtime.registerOrchestration('Reminders', function* (ctx, count: number) {
  const sent: string[] = [];
  for (let n = 1; n <= count; n += 1) {
    // A durable timer: a message due in 200 ms, whatever happens to this process meanwhile.
    yield* ctx.scheduleTimer(200);
    sent.push(yield* ctx.scheduleActivity<string>('SendReminder', n));
  }
  return sent;
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('reminders-1', 'Reminders', 3);
const status = await client.waitForOrchestration('reminders-1');
console.log(status.output); // [ 'reminder 1 sent', 'reminder 2 sent', 'reminder 3 sent' ]

await runtime.shutdown();
assert.deepEqual(status.output, ['reminder 1 sent', 'reminder 2 sent', 'reminder 3 sent']);
