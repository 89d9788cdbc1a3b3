import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

runtime.registerActivity('ImportRows', async (_ctx, batch: number) => batch * 100);

runtime.registerOrchestration('Import', function* (ctx, batches: number) {
  let rows = 0;
  for (let batch = 1; batch <= batches; batch += 1) {
    rows += yield* ctx.scheduleActivity<number>('ImportRows', batch);
    // Any string; JSON is a good choice. Clients see it, with a version that grows on change.
    ctx.setCustomStatus(JSON.stringify({ batch, of: batches, rows }));
  }
  return rows;
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('import-1', 'Import', 3);

// Follow the progress: each wait returns once the status version passes the one seen.
const seen: string[] = [];
let version = 0;
for (;;) {
  const status = await client.waitForStatusChange('import-1', version, 20);
  if (status.customStatusVersion > version && status.customStatus !== undefined) {
    seen.push(status.customStatus);
  }
  version = status.customStatusVersion;
  if (status.status === 'Completed') break;
}
console.log(seen.at(-1)); // {"batch":3,"of":3,"rows":600}

await runtime.shutdown();
assert.equal(seen.at(-1), '{"batch":3,"of":3,"rows":600}');
