import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

// The cart keeps its lines in its key-value store: readable by clients and other orchestrations
// at any time, and kept across continue-as-new.
runtime.registerOrchestration('Cart', function* (ctx) {
  for (;;) {
    const op = yield* ctx.dequeueEvent<{ sku?: string; qty?: number; checkout?: boolean }>('ops');
    if (op.checkout) return ctx.getKvAllValues();
    if (op.sku !== undefined) {
      const current = Number(ctx.getValue(op.sku) ?? '0');
      ctx.setValue(op.sku, String(current + (op.qty ?? 1)));
    }
  }
});

// Another orchestration reads the cart's store; the read is recorded, so replay sees the same.
runtime.registerOrchestration('Recommend', function* (ctx, cartId: string) {
  const tea = yield* ctx.getValueFromInstance(cartId, 'tea');
  return tea === null ? 'try our tea' : `you have ${tea} tea; try biscuits`;
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('cart-1', 'Cart');
await client.enqueueEvent('cart-1', 'ops', { sku: 'tea', qty: 2 });
await client.enqueueEvent('cart-1', 'ops', { sku: 'milk' });

// A client waits for a key and reads it as it stands now.
console.log(await client.waitForValue('cart-1', 'milk')); // 1
await client.startOrchestration('recommend-1', 'Recommend', 'cart-1');
const recommendation = await client.waitForOrchestration('recommend-1');
console.log(recommendation.output); // you have 2 tea; try biscuits

await client.enqueueEvent('cart-1', 'ops', { checkout: true });
const cart = await client.waitForOrchestration('cart-1');
console.log(cart.output); // { milk: '1', tea: '2' }

await runtime.shutdown();
assert.equal(recommendation.output, 'you have 2 tea; try biscuits');
assert.deepEqual(cart.output, { milk: '1', tea: '2' });
