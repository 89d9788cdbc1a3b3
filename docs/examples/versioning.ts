import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, InMemoryProvider, Runtime, type OrchestrationContext } from '@duro/core';

const provider = new InMemoryProvider();
const client = new Client(provider);

// Version 1.0.0: greets, then waits for a message before it ends.
function* greeterV1(ctx: OrchestrationContext, name: string) {
  const mood = yield* ctx.dequeueEvent<string>('mood');
  return `v1: hello ${name}, you feel ${mood}`;
}
// Version 2.0.0 changes the decisions (a timer first), which replay of a v1 history would reject.
function* greeterV2(ctx: OrchestrationContext, name: string) {
  yield* ctx.scheduleTimer(10);
  const mood = yield* ctx.dequeueEvent<string>('mood');
  return `v2: hello ${name}, you feel ${mood}`;
}

// The first deployment knows only 1.0.0 (registerOrchestration registers version 1.0.0).
const before = new Runtime(provider, { logLevel: 'warn' });
before.registerOrchestration('Greeter', greeterV1);
await before.start();
await client.startOrchestration('old', 'Greeter', 'ada');
while ((await client.getStatus('old')).status !== 'Running') await sleep(10);
await before.shutdown();

// The next deployment keeps 1.0.0 for instances that started on it and adds 2.0.0 for new ones.
const after = new Runtime(provider, { logLevel: 'warn' });
after.registerOrchestrationVersioned('Greeter', '1.0.0', greeterV1);
after.registerOrchestrationVersioned('Greeter', '2.0.0', greeterV2);
await after.start();
await client.startOrchestration('new', 'Greeter', 'grace');
for (const id of ['old', 'new']) await client.enqueueEvent(id, 'mood', 'fine');

console.log((await client.waitForOrchestration('old')).output); // v1: hello ada, you feel fine
console.log((await client.waitForOrchestration('new')).output); // v2: hello grace, you feel fine
const info = await client.getInstanceInfo('old');
console.log(info.orchestrationVersion); // 1.0.0

await after.shutdown();
assert.equal((await client.getStatus('old')).output, '"v1: hello ada, you feel fine"');
assert.equal((await client.getInstanceInfo('new')).orchestrationVersion, '2.0.0');
