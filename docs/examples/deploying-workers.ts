import assert from 'node:assert/strict';
import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

// Register the same orchestrations and activities in every process of the fleet.
function registerOrders(runtime: Runtime): void {
  runtime.registerActivity(
    'Charge',
    async (ctx, orderId: string) => `${orderId} charged by ${ctx.workerId}`,
  );
  runtime.registerOrchestration('Order', function* (ctx, orderId: string) {
    return yield* ctx.scheduleActivity<string>('Charge', orderId);
  });
}

// A worker process. Run as many as you need, on as many machines: each turn and each activity
// is claimed by exactly one of them at a time, and work of a process that dies is taken over
// once its lease lapses.
const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'orders');
const runtime = new Runtime(provider, {
  workerNodeId: process.env.HOSTNAME ?? 'worker-1', // stable across restarts: keeps its sessions
  logLevel: 'warn',
});
registerOrders(runtime);
await runtime.start();

// On SIGTERM (a rolling deploy), stop fetching, let work in flight finish for up to 20 s, then
// give the rest back to the fleet. The program ends on its own once the runtime has stopped.
const onSigterm = () => void runtime.shutdown(20_000);
process.once('SIGTERM', onSigterm);

// Elsewhere (a web handler, a cron job), a client only writes messages: it needs no runtime.
const client = new Client(provider);
await client.startOrchestration('order-1001', 'Order', 'order-1001');
const status = await client.waitForOrchestration('order-1001');
console.log(status.output); // order-1001 charged by …

// This demo stops itself instead of waiting for the signal.
process.off('SIGTERM', onSigterm);
await runtime.shutdown(20_000);
await provider.close();
assert.match(String(status.output), /^order-1001 charged by /);
