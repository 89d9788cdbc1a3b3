// Child process of process-exit.test.ts: a program that runs one orchestration, shuts its
// runtime down and never closes its provider, as a duroxide-node program does (its providers
// have no close()). It should end on its own.
//
//   node exit-without-close.mjs <postgres|in-memory> <url> <schema>
import { Client, InMemoryProvider, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

const [store, url, schema] = process.argv.slice(2);
const provider =
  store === 'postgres'
    ? await PostgresProvider.connectWithSchema(url, schema)
    : new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'silent' });
runtime.registerActivity('Greet', async (_ctx, name) => `Hello, ${name}!`);
runtime.registerOrchestration('Hello', function* (ctx, name) {
  return yield ctx.scheduleActivity('Greet', name);
});
await runtime.start();
const client = new Client(provider);
await client.startOrchestration('hello', 'Hello', 'exit');
const status = await client.waitForOrchestration('hello', 10_000);
await runtime.shutdown();
process.send?.(status.output);
