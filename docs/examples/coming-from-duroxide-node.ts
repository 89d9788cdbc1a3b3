import assert from 'node:assert/strict';
// Before: import { Client, PostgresProvider, Runtime } from 'duroxide';
import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

const provider = await PostgresProvider.connect(process.env.DATABASE_URL!);
const runtime = new Runtime(provider, { logLevel: 'warn' });

// The same registrations, contexts and descriptors as in duroxide-node.
runtime.registerActivity('Greet', async (ctx, name: string) => {
  ctx.traceInfo(`greeting ${name}`);
  return `Hello, ${name}!`;
});
runtime.registerOrchestration('Hello', function* (ctx, name: string) {
  // `yield task` as before; `yield* task` is typed by the descriptor.
  const greeting = (yield ctx.scheduleActivity('Greet', name)) as string;
  const reply = yield* ctx.race(ctx.waitForEvent<string>('reply'), ctx.scheduleTimer(100));
  return { greeting, replied: reply.index === 0 };
});
await runtime.start();

const client = new Client(provider);
await client.startOrchestration('hello-1', 'Hello', 'world');
const status = await client.waitForOrchestration('hello-1');
console.log(status.output); // { greeting: 'Hello, world!', replied: false }

await runtime.shutdown();
await provider.close(); // optional: duroxide-node's providers have no close()
assert.deepEqual(status.output, { greeting: 'Hello, world!', replied: false });
