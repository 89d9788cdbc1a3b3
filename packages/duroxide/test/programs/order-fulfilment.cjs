// A duroxide-node program, written against duroxide-node's documented API and run unchanged by
// the conformance test: only the package name in the require below differs from what a
// duroxide-node application has ('duroxide').
//
// Environment: DURO_STORE is a PostgreSQL URL (with DURO_SCHEMA for a schema of its own), a SQLite
// file, or sqlite::memory:; DURO_LOG_FILE is where initTracing writes. It prints what it saw as
// one line `RESULT <json>` and ends on its own once its runtime has shut down.
'use strict';

const {
  Client,
  MAX_KV_KEYS,
  MAX_WORKER_TAGS,
  PostgresProvider,
  Runtime,
  SqliteProvider,
  initTracing,
} = require('@duro/duroxide');

async function openProvider(store) {
  if (store.startsWith('postgres')) {
    const schema = process.env.DURO_SCHEMA;
    return schema
      ? PostgresProvider.connectWithSchema(store, schema)
      : PostgresProvider.connect(store);
  }
  return store === 'sqlite::memory:' ? SqliteProvider.inMemory() : SqliteProvider.open(store);
}

function registerHandlers(runtime, calls) {
  runtime.registerActivity('Reserve', async (ctx, order) => {
    ctx.traceInfo(`reserving ${order.items.length} items for ${ctx.instanceId}`);
    return { reserved: order.items.length, by: ctx.activityName };
  });
  runtime.registerActivity('Charge', async (ctx, amount) => {
    calls.charge += 1;
    if (amount > 1000) throw new Error(`card declined for ${amount}`);
    return `charged ${amount}`;
  });
  runtime.registerActivity(
    'RenderInvoice',
    async (ctx, orderId) => `invoice ${orderId} on ${ctx.tag()}`,
  );
  runtime.registerActivity('Notify', async (ctx, message) => {
    const client = ctx.getClient();
    const status = client ? (await client.getStatus(ctx.instanceId)).status : 'no client';
    return `${message} (${status})`;
  });

  runtime.registerOrchestration('Ship', function* (ctx, order) {
    yield ctx.scheduleTimer(20);
    return `shipped ${order.id}`;
  });

  runtime.registerOrchestration('ProcessOrder', function* (ctx, order) {
    ctx.setCustomStatus('reserving');
    const reservation = yield ctx.scheduleActivity('Reserve', order);
    ctx.setValue('reserved', String(reservation.reserved));
    const [charge, invoice] = yield ctx.all([
      ctx.scheduleActivityWithRetry('Charge', order.total, {
        maxAttempts: 2,
        backoff: 'exponential',
      }),
      ctx.scheduleActivity('RenderInvoice', order.id).withTag('gpu'),
    ]);
    if (charge.err) {
      ctx.setCustomStatus('payment failed');
      throw new Error(`payment failed: ${charge.err}`);
    }
    ctx.setCustomStatus('awaiting approval');
    const approval = yield ctx.race(ctx.waitForEvent('Approve'), ctx.scheduleTimer(30000));
    const note = yield ctx.dequeueEvent('notes');
    const shipped = yield ctx.scheduleSubOrchestration('Ship', order);
    const trackingId = yield ctx.newGuid();
    const finishedAt = yield ctx.utcNow();
    const notified = yield ctx.scheduleActivity('Notify', `order ${order.id} done`);
    ctx.setCustomStatus('done');
    return {
      charge: charge.ok,
      invoice: invoice.ok,
      approvedBy: approval.index === 0 ? approval.value.by : null,
      note,
      shipped,
      trackingIdLength: trackingId.length,
      finishedAtIsNumber: typeof finishedAt === 'number',
      notified,
      reserved: ctx.getValue('reserved'),
    };
  });

  runtime.registerOrchestration('Counter', function* (ctx, count) {
    yield ctx.scheduleTimer(5);
    if (count < 3) return yield ctx.continueAsNew(count + 1);
    return count;
  });
}

async function main() {
  const store = process.env.DURO_STORE || 'sqlite::memory:';
  if (process.env.DURO_LOG_FILE) {
    initTracing({ logFile: process.env.DURO_LOG_FILE, logLevel: 'info', logFormat: 'compact' });
  }
  const provider = await openProvider(store);
  const calls = { charge: 0 };
  const runtime = new Runtime(provider, {
    orchestrationConcurrency: 2,
    workerConcurrency: 4,
    dispatcherPollIntervalMs: 20,
    workerTagFilter: 'defaultAnd',
    workerTagFilterTags: ['gpu'],
    serviceName: 'order-fulfilment',
    logLevel: 'warn',
  });
  registerHandlers(runtime, calls);
  await runtime.start();

  const client = new Client(provider);
  const order = { id: 'A-1', items: ['book', 'lamp'], total: 120 };
  await client.startOrchestration('order-1', 'ProcessOrder', order);
  let status = await client.waitForStatusChange('order-1', 0, 20, 30000);
  while (status.customStatus !== 'awaiting approval') {
    status = await client.waitForStatusChange('order-1', status.customStatusVersion, 20, 30000);
  }
  await client.enqueueEvent('order-1', 'notes', 'leave at the door');
  await client.raiseEvent('order-1', 'Approve', { by: 'alice' });
  const done = await client.waitForOrchestration('order-1', 30000);

  await client.startOrchestration('order-2', 'ProcessOrder', {
    id: 'B-2',
    items: ['piano'],
    total: 5000,
  });
  const failed = await client.waitForOrchestration('order-2', 30000);

  await client.startOrchestration('counter', 'Counter', 0);
  const counted = await client.waitForOrchestration('counter', 30000);
  const executionsBefore = await client.listExecutions('counter');
  const pruned = await client.pruneExecutions('counter');
  const executionsAfter = await client.listExecutions('counter');

  const tree = await client.getInstanceTree('order-1');
  const history = await client.readExecutionHistory('order-1', 1);
  const info = await client.getInstanceInfo('order-1');
  const kv = await client.getKvAllValues('order-1');
  const reserved = await client.getValue('order-1', 'reserved');
  const stats = await client.getOrchestrationStats('order-1');
  const metrics = runtime.metricsSnapshot();
  await runtime.shutdown(1000);

  const prunedBulk = await client.pruneExecutionsBulk();
  const deleted = await client.deleteInstanceBulk({ instanceIds: ['order-2'] });
  const system = await client.getSystemMetrics();
  const depths = await client.getQueueDepths();

  const result = {
    limits: { MAX_KV_KEYS, MAX_WORKER_TAGS },
    done: { status: done.status, output: done.output, customStatus: done.customStatus },
    failed: { status: failed.status, error: failed.error, customStatus: failed.customStatus },
    chargeCalls: calls.charge,
    counted: counted.output,
    executionsBefore,
    pruned,
    executionsAfter,
    tree,
    history: history.map((event) => ({
      kind: event.kind,
      data: event.data === undefined ? undefined : JSON.parse(event.data),
    })),
    info: { status: info.status, output: info.output, orchestrationName: info.orchestrationName },
    kv,
    reserved,
    stats,
    metrics: {
      orchStarts: metrics.orchStarts,
      suborchestrationCalls: metrics.suborchestrationCalls,
      activityConfigErrors: metrics.activityConfigErrors,
      providerErrors: metrics.providerErrors,
      activityAppErrors: metrics.activityAppErrors,
    },
    prunedBulk,
    deleted,
    system,
    depths,
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
