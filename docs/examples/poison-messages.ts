import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
// maxAttempts: how many deliveries of one message before duro gives up on it (default 10).
const runtime = new Runtime(provider, {
  logLevel: 'silent',
  maxAttempts: 3,
  unregisteredBackoff: { baseDelayMs: 10, maxDelayMs: 50 },
});

// 'Resize' was renamed in a deployment, but an orchestration still schedules the old name: no
// worker can ever run it, so every delivery is abandoned until the message is poisoned.
runtime.registerOrchestration('Thumbnail', function* (ctx, image: string) {
  return yield* ctx.scheduleActivity<string>('Resize', image);
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('thumb-1', 'Thumbnail', 'cat.png');
const status = await client.waitForOrchestration('thumb-1');
console.log(status.error); // poison: activity Resize#2 exceeded 4 attempts (max 3)
console.log(status.errorDetails?.type); // Poison
console.log(runtime.metricsSnapshot().activityPoison); // 1

await runtime.shutdown();
assert.equal(status.error, 'poison: activity Resize#2 exceeded 4 attempts (max 3)');
