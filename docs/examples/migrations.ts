import assert from 'node:assert/strict';
import pg from 'pg';
import { Runtime } from '@duro/core';
import { PostgresProvider, renderMigrationSql, runMigrations } from '@duro/provider-postgres';

// A release step that migrates with a role allowed to change the schema, before any worker of
// the new version starts. Running it twice, or from several processes at once, is harmless.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const report = await runMigrations(pool, {
  schema: 'billing',
  onProgress: (step) => {
    if (step.phase === 'applied') console.log(`applied ${step.track} ${step.name}`);
  },
});
console.log(`duroxide track at ${report.duroxideVersion}, duro track at ${report.duroVersion}`);
await pool.end();

// Workers then connect without migrating (a role without DDL rights is enough).
const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'billing', {
  migrate: false,
});
const runtime = new Runtime(provider, { logLevel: 'warn' });
await runtime.start();
await runtime.shutdown();
await provider.close();

// For a DBA who applies SQL by hand: the duroxide track from version 1 to 23, as a psql script.
const script = renderMigrationSql('billing', 1, 23);
console.log(script.split('\n').find((line) => line.startsWith('-- '))); // -- duroxide 0001_…
assert.ok(report.duroxideVersion >= 23);
