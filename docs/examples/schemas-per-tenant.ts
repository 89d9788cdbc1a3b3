import assert from 'node:assert/strict';
import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

// One schema per tenant: separate tables, queues and histories in one database. Each provider
// serves one schema, and creates and migrates it on connect.
const tenants = ['acme', 'globex'];
const fleet = await Promise.all(
  tenants.map(async (tenant) => {
    const provider = await PostgresProvider.connectWithSchema(
      process.env.DATABASE_URL!,
      `tenant_${tenant}`,
      { poolSize: 4 }, // many schemas in one server: keep each pool small
    );
    const runtime = new Runtime(provider, { logLevel: 'warn' });
    runtime.registerOrchestration('Welcome', function* (ctx, user: string) {
      yield* ctx.scheduleTimer(10);
      return `welcome ${user} to ${tenant}`;
    });
    await runtime.start();
    return { tenant, provider, runtime, client: new Client(provider) };
  }),
);

// The same instance id in two schemas names two different instances.
for (const { client } of fleet) await client.startOrchestration('welcome-1', 'Welcome', 'ada');
for (const { tenant, client } of fleet) {
  const status = await client.waitForOrchestration('welcome-1');
  console.log(tenant, status.output); // acme welcome ada to acme, then globex …
  assert.equal(status.output, `welcome ada to ${tenant}`);
}

for (const { runtime, provider } of fleet) {
  await runtime.shutdown();
  await provider.close();
}
