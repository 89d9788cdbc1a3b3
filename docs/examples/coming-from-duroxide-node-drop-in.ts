import assert from 'node:assert/strict';
// Before: import { Client, Runtime, SqliteProvider } from 'duroxide';
import { Client, Runtime, SqliteProvider } from '@duro/duroxide';

// duroxide-node's names, options and result shapes, unchanged.
const provider = await SqliteProvider.inMemory();
const runtime = new Runtime(provider, { logLevel: 'warn' });
runtime.registerActivity('Greet', async (_ctx, name: string) => `Hello, ${name}!`);
runtime.registerOrchestration('Family', function* (ctx) {
  const greetings: unknown = yield ctx.all([
    ctx.scheduleActivity('Greet', 'ada'),
    ctx.scheduleSubOrchestration('Child', 'alan'),
  ]);
  return greetings;
});
runtime.registerOrchestration('Child', function* (ctx, name: string) {
  const greeting: unknown = yield ctx.scheduleActivity('Greet', name);
  return greeting;
});
await runtime.start();

const client = new Client(provider);
await client.startOrchestration('family-1', 'Family');
const status = await client.waitForOrchestration('family-1');
const tree = await client.getInstanceTree('family-1'); // { rootId, allIds, size }, as duroxide-node
console.log(status.output, tree.size); // [ { ok: 'Hello, ada!' }, { ok: 'Hello, alan!' } ] 2

await runtime.shutdown();
assert.deepEqual(status.output, [{ ok: 'Hello, ada!' }, { ok: 'Hello, alan!' }]);
assert.equal(tree.size, 2);
