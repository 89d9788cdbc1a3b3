// A program written as a duroxide-node application writes it, against `@duro/duroxide` (the only
// change from duroxide-node is the package name), type-checked against the packed declarations
// with duroxide-node's type names and run on one store.
import {
  Client,
  MAX_WORKER_TAGS,
  PostgresProvider,
  Runtime,
  SqliteProvider,
  type JsEvent,
  type JsInstanceTree,
  type JsMetricsSnapshot,
  type JsOrchestrationStatus,
} from '@duro/duroxide';

/** What the program saw. */
export interface ProgramOutcome {
  readonly status: JsOrchestrationStatus;
  readonly tree: JsInstanceTree;
  readonly history: JsEvent[];
  readonly metrics: JsMetricsSnapshot;
}

/**
 * Runs an order through reservation, a tagged invoice, an approval event and a child shipment
 * on the store at `location` (a PostgreSQL URL, or a SQLite file).
 */
export async function runDuroxideNodeProgram(location: string): Promise<ProgramOutcome> {
  const provider = location.startsWith('postgres')
    ? await PostgresProvider.connectWithSchema(location, 'duroxide_node_program')
    : await SqliteProvider.open(location);
  const runtime = new Runtime(provider, {
    dispatcherPollIntervalMs: 20,
    logLevel: 'warn',
    logFormat: 'compact',
    workerTagFilter: 'defaultAnd',
    workerTagFilterTags: ['gpu'],
  });
  runtime.registerActivity('Reserve', async (ctx, sku: string) => `reserved ${sku}`);
  runtime.registerActivity('Invoice', async (ctx, sku: string) => `invoice ${sku} on ${ctx.tag()}`);
  runtime.registerOrchestration('Ship', function* (ctx, sku: string) {
    yield ctx.scheduleTimer(10);
    return `shipped ${sku}`;
  });
  runtime.registerOrchestration('Order', function* (ctx, sku: string) {
    const reserved: string = yield ctx.scheduleActivity('Reserve', sku);
    const invoice: string = yield ctx.scheduleActivity('Invoice', sku).withTag('gpu');
    ctx.setCustomStatus('awaiting approval');
    const approval: { by: string } = yield ctx.waitForEvent('Approve');
    const shipped: string = yield ctx.scheduleSubOrchestration('Ship', sku);
    return [reserved, invoice, `approved by ${approval.by}`, shipped].join(', ');
  });
  await runtime.start();
  try {
    const client = new Client(provider);
    await client.startOrchestration('order-1', 'Order', 'A-1');
    let status = await client.waitForStatusChange('order-1', 0, 20, 30_000);
    while (status.customStatus !== 'awaiting approval') {
      status = await client.waitForStatusChange('order-1', status.customStatusVersion, 20, 30_000);
    }
    await client.raiseEvent('order-1', 'Approve', { by: 'alice' });
    const done = await client.waitForOrchestration('order-1', 30_000);
    const expected = 'reserved A-1, invoice A-1 on gpu, approved by alice, shipped A-1';
    if (done.output !== expected) throw new Error(`order-1 ended ${JSON.stringify(done)}`);
    const tree = await client.getInstanceTree('order-1');
    if (tree.size !== 2 || tree.rootId !== 'order-1')
      throw new Error(`tree ${JSON.stringify(tree)}`);
    const history = await client.readExecutionHistory('order-1', 1);
    for (const event of history) if (event.data !== undefined) JSON.parse(event.data);
    const metrics = runtime.metricsSnapshot();
    if (metrics.suborchestrationCalls !== 1 || MAX_WORKER_TAGS !== 5) {
      throw new Error(`metrics ${JSON.stringify(metrics)}`);
    }
    await client.deleteInstanceBulk();
    return { status: done, tree, history, metrics };
  } finally {
    await runtime.shutdown(1_000);
    await provider.close();
  }
}
