import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

runtime.registerActivity('Resize', async (_ctx, image: string) => `${image}@2x`);
runtime.registerActivity('Log', async (_ctx, line: string) => line);

runtime.registerOrchestration('ProcessImage', function* (ctx, image: string) {
  if (image.endsWith('.bmp')) throw new Error(`unsupported format: ${image}`);
  return yield* ctx.scheduleActivity<string>('Resize', image);
});
runtime.registerOrchestration('AuditLog', function* (ctx, line: string) {
  return yield* ctx.scheduleActivity<string>('Log', line);
});

runtime.registerOrchestration('ProcessAlbum', function* (ctx, images: string[]) {
  // Children run side by side; each has its own history and instance id (parent::sub::N).
  const results = yield* ctx.all(
    images.map((image) => ctx.scheduleSubOrchestration<string>('ProcessImage', image)),
  );
  // A child with an id you choose, awaited like any task; its failure is thrown here.
  let cover: string;
  try {
    cover = yield* ctx.scheduleSubOrchestrationWithId<string>(
      'ProcessImage',
      `${ctx.instanceId}-cover`,
      'cover.bmp',
    );
  } catch (error) {
    cover = `no cover (${(error as Error).message})`;
  }
  // A detached start: fire and forget, it outlives this orchestration.
  yield* ctx.startOrchestration('AuditLog', `${ctx.instanceId}-audit`, 'album processed');
  return { resized: results.map((r) => r.ok ?? r.err), cover };
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('album-1', 'ProcessAlbum', ['a.png', 'b.jpg']);
const status = await client.waitForOrchestration('album-1');
console.log(status.output);
// { resized: [ 'a.png@2x', 'b.jpg@2x' ], cover: 'no cover (unsupported format: cover.bmp)' }

const tree = await client.getInstanceTree('album-1');
console.log(tree.allIds); // the album, its two generated children and album-1-cover
await client.waitForOrchestration('album-1-audit');

await runtime.shutdown();
assert.deepEqual(status.output, {
  resized: ['a.png@2x', 'b.jpg@2x'],
  cover: 'no cover (unsupported format: cover.bmp)',
});
assert.equal(tree.allIds.length, 4);
