// Child process of concurrent-migrations.test.ts: migrates one schema and prints the report as
// one JSON line. It imports the built package, as a separate process would.
import { runMigrations } from '@duro/provider-postgres';
import pg from 'pg';

const [url, schema] = process.argv.slice(2);
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const report = await runMigrations(client, { schema });
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  await client.end();
}
