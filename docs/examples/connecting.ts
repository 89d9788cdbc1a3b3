import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PostgresProvider, type PostgresSslOptions } from '@duro/provider-postgres';

// Production: TLS with the server's certificate checked against your CA and host name. Locally
// (no CA file given), `prefer` uses TLS when the server offers it, without checking it.
const caFile = process.env.DB_CA_FILE;
const ssl: PostgresSslOptions = caFile
  ? { mode: 'verify-full', ca: readFileSync(caFile) }
  : { mode: 'prefer' };

const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'orders', {
  ssl,
  poolSize: 20, // else DUROXIDE_PG_POOL_MAX, else 10
});
// The same settings can come from the URL alone, as psql takes them:
//   postgres://app@db.internal/orders?sslmode=verify-full&sslrootcert=/etc/ssl/certs/db-ca.pem
// or from libpq's variables (PGSSLMODE, PGSSLROOTCERT, PGSSLCERT, PGSSLKEY).

const depths = await provider.getQueueDepths();
console.log(depths.orchestratorQueue); // 0
await provider.close();
assert.equal(depths.orchestratorQueue, 0);
