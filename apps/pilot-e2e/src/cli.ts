#!/usr/bin/env node
import { acquirePostgres } from '@duro/test-postgres';

// The swarm check grows here; until it exists this boots the database it will run on.
const server = await acquirePostgres();
try {
  console.log(`pilot-e2e: PostgreSQL ${server.serverVersion} via ${server.route}`);
} finally {
  await server.stop();
}
