import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

let stoppedEarly = false;
runtime.registerActivity('Transcode', async (ctx, file: string) => {
  ctx.signal.addEventListener('abort', () => {
    stoppedEarly = true;
  });
  // Pass the signal to whatever supports one (fetch, streams, timers) so work stops at once.
  await sleep(60_000, undefined, { signal: ctx.signal }).catch(() => undefined);
  return `${file}.mp4`;
});

runtime.registerOrchestration('Transcode', function* (ctx, file: string) {
  ctx.setCustomStatus('transcoding');
  return yield* ctx.scheduleActivity<string>('Transcode', file);
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('video-1', 'Transcode', 'talk.mov');
await client.waitForStatusChange('video-1', 0);

await client.cancelInstance('video-1', 'uploaded by mistake');
const status = await client.waitForOrchestration('video-1');
console.log(status.status, status.error); // Failed canceled: uploaded by mistake

await runtime.shutdown();
assert.equal(status.error, 'canceled: uploaded by mistake');
assert.equal(status.errorDetails?.type, 'Application');
console.log('activity saw the cancellation:', stoppedEarly);
