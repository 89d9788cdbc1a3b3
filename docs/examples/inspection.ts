import assert from 'node:assert/strict';
import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';
import {
  DEFAULT_FLEET_ASSUMPTIONS,
  SchemaInspector,
  explainDiagnosis,
} from '@duro/provider-postgres/inspection';

// Some instances to look at: two imports, one of which fails.
const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'imports');
const runtime = new Runtime(provider, { logLevel: 'silent' });
runtime.registerActivity('ReadFile', async (_ctx, path: string) => {
  if (path.endsWith('.bad')) throw new Error(`cannot parse ${path}`);
  return 3;
});
runtime.registerOrchestration('Import', function* (ctx, path: string) {
  return yield* ctx.scheduleActivity<number>('ReadFile', path);
});
await runtime.start();
const client = new Client(provider);
for (const path of ['a.csv', 'b.bad']) {
  await client.startOrchestration(`import-${path}`, 'Import', path);
  await client.waitForOrchestration(`import-${path}`);
}
await runtime.shutdown();
await provider.close();

// What `duro list --status Failed --id-prefix import-` and `duro why` read, from code.
const inspector = await SchemaInspector.connect(process.env.DATABASE_URL!, 'imports');
const failed = await inspector.listInstances({ status: 'Failed', idPrefix: 'import-', limit: 20 });
console.log(failed.instances.map((instance) => instance.instanceId)); // [ 'import-b.bad' ]

const counts = await inspector.countInstancesByStatus();
console.log(counts.filter((count) => count.count > 0));
// [ { status: 'Completed', count: 1, precision: 'exact' }, { status: 'Failed', ... } ]

const diagnosis = await inspector.readInstanceDiagnosis('import-b.bad');
const why = explainDiagnosis(diagnosis, DEFAULT_FLEET_ASSUMPTIONS, Date.now());
console.log(why.verdict); // not running: execution 1 Failed at ...
await inspector.close();

assert.deepEqual(
  failed.instances.map((instance) => instance.instanceId),
  ['import-b.bad'],
);
assert.equal(counts.find((count) => count.status === 'Failed')?.count, 1);
assert.match(why.verdict, /^not running: execution 1 Failed/);
