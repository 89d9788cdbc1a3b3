import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

// Everything in one process, nothing to install: state lives as long as the provider object.
const provider = new InMemoryProvider();

const runtime = new Runtime(provider, { logLevel: 'warn' });
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
assert.equal(status.output, 'Hello, world!');
