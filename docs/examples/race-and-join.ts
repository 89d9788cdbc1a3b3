import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

runtime.registerActivity('PriceFrom', async (_ctx, supplier: string) => {
  if (supplier === 'closed-shop') throw new Error('supplier closed');
  return supplier.length * 10;
});
runtime.registerActivity('SlowQuote', async (ctx) => {
  await sleep(5_000, undefined, { signal: ctx.signal }).catch(() => undefined);
  return 'slow';
});

runtime.registerOrchestration('BestPrice', function* (ctx, suppliers: string[]) {
  // Join: fan out, then wait for all. Each entry is { ok: value } or { err: message }.
  const quotes = yield* ctx.all(suppliers.map((s) => ctx.scheduleActivity<number>('PriceFrom', s)));
  const prices = quotes.flatMap((quote) => (quote.ok === undefined ? [] : [quote.ok]));
  const failures = quotes.flatMap((quote) => (quote.err === undefined ? [] : [quote.err]));

  // Race: the first of any number of tasks wins; the losers are cancelled.
  const first = yield* ctx.race(
    ctx.scheduleActivity<string>('SlowQuote'),
    ctx.scheduleTimer(100),
    ctx.waitForEvent<string>('manual-quote'),
  );
  return { best: Math.min(...prices), failures, raceWinner: first.index };
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('prices-1', 'BestPrice', [
  'acme',
  'closed-shop',
  'globex-industries',
]);
const status = await client.waitForOrchestration('prices-1');
console.log(status.output); // { best: 40, failures: [ 'supplier closed' ], raceWinner: 1 }

await runtime.shutdown();
assert.deepEqual(status.output, { best: 40, failures: ['supplier closed'], raceWinner: 1 });
