import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();

// A general worker: orchestrations and untagged activities (the default tag filter).
const general = new Runtime(provider, { logLevel: 'warn' });
// A GPU worker: activities tagged 'gpu' only, and no orchestrations.
const gpu = new Runtime(provider, {
  logLevel: 'warn',
  orchestrationConcurrency: 0,
  workerTagFilter: { tags: ['gpu'] },
});

for (const [runtime, name] of [
  [general, 'general'],
  [gpu, 'gpu'],
] as const) {
  runtime.registerActivity(
    'Render',
    async (ctx, scene: string) => `${scene} on ${name} (tag ${ctx.tag()})`,
  );
  runtime.registerActivity('Upload', async (_ctx, file: string) => `${file} uploaded by ${name}`);
}
general.registerOrchestration('RenderScene', function* (ctx, scene: string) {
  const frame = yield* ctx.scheduleActivity<string>('Render', scene).withTag('gpu');
  const upload = yield* ctx.scheduleActivity<string>('Upload', scene);
  return [frame, upload];
});

await general.start();
await gpu.start();
const client = new Client(provider);
await client.startOrchestration('scene-1', 'RenderScene', 'castle');
const status = await client.waitForOrchestration('scene-1');
console.log(status.output); // [ 'castle on gpu (tag gpu)', 'castle uploaded by general' ]

await general.shutdown();
await gpu.shutdown();
assert.deepEqual(status.output, ['castle on gpu (tag gpu)', 'castle uploaded by general']);
