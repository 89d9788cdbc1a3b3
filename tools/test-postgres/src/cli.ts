#!/usr/bin/env node
import { redact } from './acquire-postgres.js';
import { startEmbeddedPostgres } from './routes/embedded.js';
import { readServerVersion } from './server-probe.js';
import { sweepTestSchemas } from './test-schema.js';

const USAGE = `usage: duro-test-postgres <command>

  start   start an embedded PostgreSQL on a free port, print its URL, and keep it running
          until Ctrl-C (its data is deleted when it stops)
  sweep   drop every duro_test_* schema left in the database at DATABASE_URL`;

async function start(): Promise<void> {
  const server = await startEmbeddedPostgres({ onLog: () => {} });
  const version = await readServerVersion(server.url);
  console.log(`PostgreSQL ${version} is running.`);
  console.log(`export DATABASE_URL='${server.url}'`);
  console.log('Press Ctrl-C to stop it.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.stop();
}

async function sweep(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('sweep: set DATABASE_URL to the database to clean');
  const dropped = await sweepTestSchemas(url);
  console.log(`dropped ${dropped.length} test schema(s) from ${redact(url)}`);
  for (const name of dropped) console.log(`  ${name}`);
}

const command = process.argv[2];
const run = command === 'start' ? start : command === 'sweep' ? sweep : undefined;
if (!run) {
  console.error(USAGE);
  process.exit(2);
}
run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
