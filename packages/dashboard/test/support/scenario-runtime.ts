import { Client, Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';

/** A payload that would run script if the dashboard ever rendered data as HTML. */
export const SCRIPT_PAYLOAD =
  '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

/** How many small instances `bulk-NNN` are started, so the list has more than one page. */
export const BULK_INSTANCES = 60;

/** A runtime with the scenarios' orchestrations, on a provider of one schema. */
export interface ScenarioRuntime {
  readonly provider: PostgresProvider;
  readonly client: Client;
  readonly runtime: Runtime;
  /** Shuts the runtime down and closes the provider. */
  stop(): Promise<void>;
}

/**
 * Starts a real runtime on `schema` (migrated by the provider) with the orchestrations the
 * dashboard tests look at: an order with an activity, a timer, a sub-orchestration, custom status
 * and a key/value; an activity retried twice before it succeeds; a failing orchestration; one
 * that waits for an event and a queue message; one that continues as new; one whose activity has
 * a tag no worker takes.
 */
export async function startScenarioRuntime(
  databaseUrl: string,
  schema: string,
): Promise<ScenarioRuntime> {
  const provider = await PostgresProvider.connectWithSchema(databaseUrl, schema, { poolSize: 4 });
  const runtime = new Runtime(provider, { dispatcherPollIntervalMs: 20, logLevel: 'silent' });
  const tries = new Map<string, number>();
  runtime.registerActivity('Charge', async (_ctx, order: { orderId: number }) => {
    return `receipt ${order.orderId} ${SCRIPT_PAYLOAD}`;
  });
  runtime.registerActivity('Ship', async (_ctx, orderId: number) => `shipped ${orderId}`);
  runtime.registerActivity('Unreliable', async (_ctx, key: string) => {
    const attempt = (tries.get(key) ?? 0) + 1;
    tries.set(key, attempt);
    if (attempt < 3) throw new Error(`try ${attempt} failed`);
    return `ok after ${attempt} tries`;
  });
  runtime.registerActivity('Explode', async () => {
    throw new Error('card declined <b>twice</b>');
  });
  runtime.registerOrchestration(
    'ProcessOrder',
    function* (ctx, order: { orderId: number; note: string }) {
      ctx.setCustomStatus(JSON.stringify({ stage: 'charging', note: order.note }));
      ctx.setValue('stage', JSON.stringify('charged'));
      const receipt = yield* ctx.scheduleActivity<string>('Charge', order);
      yield* ctx.scheduleTimer(30);
      const shipped = yield* ctx.scheduleSubOrchestration<string>('ShipOrder', order.orderId);
      ctx.setCustomStatus(JSON.stringify({ stage: 'done' }));
      return { receipt, shipped };
    },
  );
  runtime.registerOrchestration('ShipOrder', function* (ctx, orderId: number) {
    return yield* ctx.scheduleActivity<string>('Ship', orderId);
  });
  runtime.registerOrchestration('Flaky', function* (ctx, key: string) {
    return yield* ctx.scheduleActivityWithRetry<string>('Unreliable', key, {
      maxAttempts: 5,
      backoff: 'linear',
    });
  });
  runtime.registerOrchestration('Failing', function* (ctx) {
    return yield* ctx.scheduleActivity<string>('Explode', null);
  });
  runtime.registerOrchestration('Approval', function* (ctx) {
    const decision = yield* ctx.waitForEvent<string>('approve');
    const note = yield* ctx.dequeueEvent<string>('inbox');
    return { decision, note };
  });
  runtime.registerOrchestration('Looper', function* (ctx, round: number) {
    if (round < 3) return yield* ctx.continueAsNew(round + 1);
    return round;
  });
  runtime.registerOrchestration('GpuJob', function* (ctx) {
    return yield* ctx.scheduleActivity<string>('Render', null).withTag('gpu');
  });
  await runtime.start();
  return {
    provider,
    client: new Client(provider),
    runtime,
    async stop() {
      await runtime.shutdown();
      await provider.close();
    },
  };
}

/** Waits until `instanceId`'s status is `status` (its first turn committed for `Running`). */
export async function statusReached(
  client: Client,
  instanceId: string,
  status: string,
): Promise<void> {
  while ((await client.getStatus(instanceId)).status !== status) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Starts the scenarios' instances and waits for each to reach its state: `order-1`, `flaky-1`,
 * `looper-1` and the `bulk-NNN` completed, `failing-1` failed, `approval-1`, `approval-2` and
 * `gpu-1` running.
 */
export async function runScenarios(client: Client): Promise<void> {
  await client.startOrchestration('order-1', 'ProcessOrder', { orderId: 1, note: SCRIPT_PAYLOAD });
  await client.startOrchestration('flaky-1', 'Flaky', 'flaky-1');
  await client.startOrchestration('failing-1', 'Failing');
  await client.startOrchestration('approval-1', 'Approval');
  await client.startOrchestration('approval-2', 'Approval');
  await client.startOrchestration('looper-1', 'Looper', 1);
  await client.startOrchestration('gpu-1', 'GpuJob');
  for (let index = 1; index <= BULK_INSTANCES; index += 1) {
    await client.startOrchestration(`bulk-${String(index).padStart(3, '0')}`, 'ShipOrder', index);
  }
  for (const id of ['order-1', 'flaky-1', 'looper-1']) await statusReached(client, id, 'Completed');
  await statusReached(client, 'failing-1', 'Failed');
  for (const id of ['approval-1', 'approval-2', 'gpu-1'])
    await statusReached(client, id, 'Running');
  for (let index = 1; index <= BULK_INSTANCES; index += 1) {
    await statusReached(client, `bulk-${String(index).padStart(3, '0')}`, 'Completed');
  }
}
