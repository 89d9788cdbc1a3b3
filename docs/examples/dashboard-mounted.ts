import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDashboard } from '@duro/dashboard';
import { PostgresProvider } from '@duro/provider-postgres';

// The app's workers migrate the schema when they connect.
const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'shop');
await provider.close();

const dashboard = await createDashboard({
  databaseUrl: process.env.DATABASE_URL!,
  schema: 'shop',
  basePath: '/ops/duro/',
  allowActions: true,
});
// The app's own server: its routes, its authentication, and the dashboard under /ops/duro/.
const server = createServer((request, response) => {
  if (request.headers.authorization !== 'Bearer staff-only') {
    response.writeHead(401).end();
  } else if (request.url?.startsWith('/ops/duro/')) {
    dashboard.handle(request, response);
  } else {
    response.end('the shop');
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

const session = await fetch(`http://127.0.0.1:${port}/ops/duro/api/session`, {
  headers: { authorization: 'Bearer staff-only' },
});
const info = (await session.json()) as { schema: string; actionsEnabled: boolean };
console.log(info.schema, info.actionsEnabled); // shop true

server.close();
await dashboard.close();
assert.equal(info.schema, 'shop');
assert.equal(info.actionsEnabled, true);
