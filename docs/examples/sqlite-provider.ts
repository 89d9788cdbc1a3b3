import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Runtime } from '@duro/core';
import { SqliteProvider } from '@duro/provider-sqlite';

const file = join(mkdtempSync(join(tmpdir(), 'jobs-')), 'jobs.db');

// The worker: every commit flushed to disk (the default); up to 5 s of waiting for another
// process's write before an operation fails with a retryable error; an idle fetch looks for
// other processes' commits every 20 ms (default 50).
const worker = await SqliteProvider.open(file, {
  synchronous: 'FULL',
  busyTimeoutMs: 5_000,
  pollIntervalMs: 20,
});
const runtime = new Runtime(worker, { logLevel: 'warn' });
runtime.registerActivity('Render', async (_ctx, page: string) => `${page}.pdf`);
runtime.registerOrchestration('RenderPage', function* (ctx, page: string) {
  return yield* ctx.scheduleActivity<string>('Render', page);
});
await runtime.start();

// Another connection to the same file, as a web process beside the worker would open it.
const web = await SqliteProvider.open(file);
const client = new Client(web);
await client.startOrchestration('page-1', 'RenderPage', 'cover');
const status = await client.waitForOrchestration('page-1');
console.log(status.output); // cover.pdf

await runtime.shutdown();
await web.close();
await worker.close();
assert.equal(status.output, 'cover.pdf');
