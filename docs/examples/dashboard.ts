import assert from 'node:assert/strict';
import { Client, Runtime } from '@duro/core';
import { startDashboard, type InstanceDetailJson, type InstancePageJson } from '@duro/dashboard';
import { PostgresProvider } from '@duro/provider-postgres';

// A worker that runs an orchestration waiting for an approval.
const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'shop');
const runtime = new Runtime(provider, { logLevel: 'warn' });
runtime.registerOrchestration('ShipOrder', function* (ctx, orderId: string) {
  ctx.setCustomStatus('waiting for approval');
  const approver = yield* ctx.waitForEvent<string>('approved');
  return `${orderId} approved by ${approver}`;
});
await runtime.start();
const client = new Client(provider);
await client.startOrchestration('order-7', 'ShipOrder', 'order-7');
await client.waitForStatusChange('order-7', 0, 50, 10_000);

// What `npx duro ui --schema shop --allow-actions` serves, started from code on a free port.
const actionLines: string[] = [];
const dashboard = await startDashboard({
  databaseUrl: process.env.DATABASE_URL!,
  schema: 'shop',
  port: 0,
  allowActions: true,
  log: (line) => actionLines.push(line),
});
const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const response = await fetch(new URL(path, dashboard.url), init);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

// The list the page shows, filtered as its search fields filter it.
const running = await api<InstancePageJson>('api/instances?status=Running&prefix=order-');
console.log(running.instances.map((instance) => instance.instanceId)); // [ 'order-7' ]

// The instance page: its status and `duro why`'s verdict.
const detail = await api<InstanceDetailJson>('api/instance?id=order-7');
console.log(detail.status, '-', detail.why.verdict);
// Running - idle: nothing is queued for it; it waits for an event, a queue message or a timer ...

// An action, as the page's "Raise event" button sends it: same origin, the session's CSRF token.
const { csrfToken } = await api<{ csrfToken: string }>('api/session');
await api('api/actions/raise-event', {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    origin: new URL(dashboard.url).origin,
    'x-duro-csrf': csrfToken,
  },
  body: JSON.stringify({ instanceId: 'order-7', eventName: 'approved', data: '"ops"' }),
});
const done = await client.waitForOrchestration('order-7');
console.log(done.output); // order-7 approved by ops

await dashboard.close();
await runtime.shutdown();
await provider.close();
assert.deepEqual(
  running.instances.map((instance) => instance.instanceId),
  ['order-7'],
);
assert.equal(detail.status, 'Running');
assert.equal(done.output, 'order-7 approved by ops');
assert.equal(actionLines.length, 1); // every action is logged
