import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

interface Order {
  readonly id: string;
  readonly items: readonly string[];
}

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

// An activity receives an ActivityContext and the input, and returns anything JSON can carry.
runtime.registerActivity('Reserve', async (ctx, item: string) => {
  ctx.traceInfo(`reserving ${item} (attempt ${ctx.attempt}) for ${ctx.instanceId}`);
  return { item, shelf: item.length };
});
runtime.registerActivity('Ship', async (_ctx, order: Order) => `tracking-${order.id}`);

// An orchestration is a generator: each yield* schedules a task and resumes with its result.
runtime.registerOrchestration('FulfilOrder', function* (ctx, order: Order) {
  const shelves: number[] = [];
  for (const item of order.items) {
    const reservation = yield* ctx.scheduleActivity<{ shelf: number }>('Reserve', item);
    shelves.push(reservation.shelf);
  }
  const tracking = yield* ctx.scheduleActivity<string>('Ship', order);
  return { orderId: order.id, shelves, tracking, instance: ctx.instanceId };
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('order-7', 'FulfilOrder', { id: '7', items: ['tea', 'milk'] });
const status = await client.waitForOrchestration('order-7');
console.log(status.output);
// { orderId: '7', shelves: [ 3, 4 ], tracking: 'tracking-7', instance: 'order-7' }

await runtime.shutdown();
assert.deepEqual(status.output, {
  orderId: '7',
  shelves: [3, 4],
  tracking: 'tracking-7',
  instance: 'order-7',
});
