import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, InMemoryProvider, Runtime, type OrchestrationContext } from '@duro/core';

const provider = new InMemoryProvider();
const client = new Client(provider);

function* shipV1(ctx: OrchestrationContext, order: string) {
  yield* ctx.scheduleActivity('Pack', order);
  return yield* ctx.waitForEvent<string>('picked-up');
}
// The same name and version with a different first decision: an unsafe change.
function* shipEdited(ctx: OrchestrationContext, order: string) {
  yield* ctx.scheduleTimer(1_000);
  yield* ctx.scheduleActivity('Pack', order);
  return yield* ctx.waitForEvent<string>('picked-up');
}

const first = new Runtime(provider, { logLevel: 'silent' });
first.registerActivity('Pack', async () => 'packed');
first.registerOrchestration('Ship', shipV1);
await first.start();
await client.startOrchestration('order-1', 'Ship', 'order-1');
while ((await client.getStatus('order-1')).status !== 'Running') await sleep(10);
await first.shutdown();

// A deployment with the edited code replays order-1's history at its next turn.
const second = new Runtime(provider, { logLevel: 'silent' });
second.registerActivity('Pack', async () => 'packed');
second.registerOrchestration('Ship', shipEdited);
await second.start();
await client.raiseEvent('order-1', 'picked-up', 'courier');
const status = await client.waitForOrchestration('order-1');
console.log(status.status); // Failed
console.log(status.errorDetails?.type, status.errorDetails); // Configuration, kind Nondeterminism
console.log(status.error);
// nondeterministic: schedule mismatch:
//   action=CreateTimer { scheduling_event_id: 0, fire_at_ms: … }
//   vs event=ActivityScheduled { name: "Pack", input: "\"order-1\"", session_id: None, tag: None }

await second.shutdown();
assert.match(status.error ?? '', /^nondeterministic: schedule mismatch: action=CreateTimer/);
