import assert from 'node:assert/strict';
import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

// A schema shared with Rust workers built on duroxide-pg 0.1.35 (the duroxide-node 0.1.29
// binary), which know the duroxide migrations 1–21 and 23: stop there, or they refuse it.
const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'shared', {
  migrateToVersion: 23,
});

// Both languages must register the same orchestration and activity names, with the same
// decisions in the same order; an instance may run one turn in Rust and the next in TypeScript.
const runtime = new Runtime(provider, {
  logLevel: 'warn',
  // Which duroxide versions' executions this runtime replays (the default range, spelled out).
  supportedReplayVersions: { min: '0.0.0', max: '0.1.32' },
});
runtime.registerActivity('Echo', async (_ctx, text: string) => text);
runtime.registerOrchestration('EchoTwice', function* (ctx, text: string) {
  const first = yield* ctx.scheduleActivity<string>('Echo', text);
  return [first, yield* ctx.scheduleActivity<string>('Echo', text)];
});
await runtime.start();

const client = new Client(provider);
await client.startOrchestration('echo-1', 'EchoTwice', 'hi');
const status = await client.waitForOrchestration('echo-1');
console.log(status.output); // [ 'hi', 'hi' ]

await runtime.shutdown();
await provider.close();
assert.deepEqual(status.output, ['hi', 'hi']);
