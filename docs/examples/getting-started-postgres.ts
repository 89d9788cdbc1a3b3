import assert from 'node:assert/strict';
import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

// Connects, and creates or migrates duro's tables in the `public` schema first.
const provider = await PostgresProvider.connect(process.env.DATABASE_URL!);

const runtime = new Runtime(provider);
runtime.registerActivity('Greet', async (_ctx, name: string) => `Hello, ${name}!`);
runtime.registerOrchestration('HelloWorld', function* (ctx, name: string) {
  const greeting = yield* ctx.scheduleActivity<string>('Greet', name);
  return greeting;
});
await runtime.start();

const client = new Client(provider);
await client.startOrchestration('hello-1', 'HelloWorld', 'world');
const status = await client.waitForOrchestration('hello-1');
console.log(status.status, status.output); // Completed Hello, world!

await runtime.shutdown();
await provider.close();
assert.equal(status.output, 'Hello, world!');
