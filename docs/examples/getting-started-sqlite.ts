import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Runtime } from '@duro/core';
import { SqliteProvider } from '@duro/provider-sqlite';

// One durable file (created, with its tables, when missing): for a laptop, a test or a small
// deployment without a PostgreSQL server. `SqliteProvider.inMemory()` keeps nothing.
const file = join(mkdtempSync(join(tmpdir(), 'hello-')), 'hello.db');
const provider = await SqliteProvider.open(file);

const runtime = new Runtime(provider, { logLevel: 'warn' });
runtime.registerActivity('Greet', async (_ctx, name: string) => `Hello, ${name}!`);
runtime.registerOrchestration('HelloWorld', function* (ctx, name: string) {
  return yield* ctx.scheduleActivity<string>('Greet', name);
});
await runtime.start();

const client = new Client(provider);
await client.startOrchestration('hello-1', 'HelloWorld', 'world');
const status = await client.waitForOrchestration('hello-1');
console.log(status.status, status.output); // Completed Hello, world!

await runtime.shutdown();
await provider.close();
assert.equal(status.output, 'Hello, world!');
