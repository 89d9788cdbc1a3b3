import assert from 'node:assert/strict';
import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

/** What one execution of the subscription knows. */
interface Subscription {
  readonly customer: string;
  readonly plan: string | null;
  readonly period: number;
}

/** What the subscription's custom status shows. */
interface Progress {
  readonly state: 'awaiting activation' | 'active';
  readonly period: number;
}

// One second, so the example ends quickly; a real subscription would bill monthly.
const BILLING_PERIOD_MS = 1_000;

const provider = await PostgresProvider.connect(process.env.DATABASE_URL!);
const runtime = new Runtime(provider, { logLevel: 'warn' });

// Activities do the real work: they may call services, read clocks and fail.
runtime.registerActivity('ChargeCard', async (_ctx, sub: Subscription) => {
  return `receipt-${sub.customer}-${sub.period}`;
});
runtime.registerActivity('EmailReceipt', async (ctx, receipt: string) => {
  ctx.traceInfo(`emailed ${receipt}`);
});

// A sub-orchestration: billing one period is a workflow of its own.
runtime.registerOrchestration('BillPeriod', function* (ctx, sub: Subscription) {
  const receipt = yield* ctx.scheduleActivity<string>('ChargeCard', sub);
  yield* ctx.scheduleActivity('EmailReceipt', receipt);
  return receipt;
});

runtime.registerOrchestration('Subscription', function* (ctx, input: Subscription) {
  let sub = input;
  if (sub.plan === null) {
    // An external event: wait (durably, for as long as it takes) until the customer activates.
    const progress: Progress = { state: 'awaiting activation', period: 0 };
    ctx.setCustomStatus(JSON.stringify(progress));
    sub = { ...sub, plan: yield* ctx.waitForEvent<string>('activate') };
  }

  const receipt = yield* ctx.scheduleSubOrchestration<string>('BillPeriod', sub);
  const progress: Progress = { state: 'active', period: sub.period };
  ctx.setCustomStatus(JSON.stringify(progress));

  // Whichever comes first: a cancellation message, or the end of the period (a durable timer).
  const next = yield* ctx.race(
    ctx.dequeueEvent<string>('cancel'),
    ctx.scheduleTimer(BILLING_PERIOD_MS),
  );
  if (next.index === 0) {
    return { customer: sub.customer, plan: sub.plan, periods: sub.period, lastReceipt: receipt };
  }

  // Each period is a new execution: the history stays short however long the customer stays.
  return yield* ctx.continueAsNew({ ...sub, period: sub.period + 1 });
});

await runtime.start();

const client = new Client(provider);
await client.startOrchestration('subscription-ada', 'Subscription', {
  customer: 'ada',
  plan: null,
  period: 1,
});

// Follow the custom status: activate the subscription once it waits, cancel it in period 3.
let seen = 0;
for (;;) {
  const status = await client.waitForStatusChange('subscription-ada', seen, 50, 30_000);
  seen = status.customStatusVersion;
  const progress = JSON.parse(status.customStatus ?? 'null') as Progress | null;
  if (progress?.state === 'awaiting activation') {
    await client.raiseEvent('subscription-ada', 'activate', 'monthly');
  }
  if (progress?.state === 'active' && progress.period === 3) break;
}
await client.enqueueEvent('subscription-ada', 'cancel', 'moved to the annual plan');

const done = await client.waitForOrchestration('subscription-ada');
console.log(done.status, done.output);
// Completed { customer: 'ada', plan: 'monthly', periods: 3, lastReceipt: 'receipt-ada-3' }

await runtime.shutdown();
await provider.close();
assert.equal(done.status, 'Completed');
assert.equal((done.output as { plan: string }).plan, 'monthly');
