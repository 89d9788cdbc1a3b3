import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

interface Counter {
  readonly total: number;
  readonly generation: number;
}

// An eternal counter: each execution handles a few messages, then starts over with its state as
// input, so no execution's history grows past a few events.
runtime.registerOrchestration('Counter', function* (ctx, state: Counter) {
  let total = state.total;
  for (let handled = 0; handled < 2; handled += 1) {
    const message = yield* ctx.dequeueEvent<{ add?: number; stop?: boolean }>('ops');
    if (message.stop) return { total, generation: state.generation, execution: ctx.executionId };
    total += message.add ?? 0;
  }
  return yield* ctx.continueAsNew({ total, generation: state.generation + 1 });
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('counter-1', 'Counter', { total: 0, generation: 1 });
// Messages not yet read are carried over to the next execution, in order.
for (const add of [1, 2, 3, 4, 5]) await client.enqueueEvent('counter-1', 'ops', { add });
await client.enqueueEvent('counter-1', 'ops', { stop: true });

const status = await client.waitForOrchestration('counter-1');
console.log(status.output); // { total: 15, generation: 3, execution: 3 }
console.log(await client.listExecutions('counter-1')); // [ 1, 2, 3 ]

await runtime.shutdown();
assert.deepEqual(status.output, { total: 15, generation: 3, execution: 3 });
