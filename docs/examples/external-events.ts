import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

interface Decision {
  readonly approved: boolean;
  readonly by: string;
}

runtime.registerOrchestration('ExpenseApproval', function* (ctx, amount: number) {
  // Tell the outside world what the instance waits for, in the same turn as the wait.
  ctx.setCustomStatus('waiting for a manager');
  const outcome = yield* ctx.race(
    ctx.waitForEvent<Decision>('decision'),
    ctx.scheduleTimer(60_000), // give up after a minute
  );
  if (outcome.index === 1) return { amount, result: 'timed out' };
  const decision = outcome.value;
  return { amount, result: decision.approved ? `approved by ${decision.by}` : 'rejected' };
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('expense-12', 'ExpenseApproval', 120);

// Raise the event once the instance waits for it: an event reaches a wait that already exists.
await client.waitForStatusChange('expense-12', 0);
await client.raiseEvent('expense-12', 'decision', { approved: true, by: 'grace' });

const status = await client.waitForOrchestration('expense-12');
console.log(status.output); // { amount: 120, result: 'approved by grace' }

await runtime.shutdown();
assert.deepEqual(status.output, { amount: 120, result: 'approved by grace' });
