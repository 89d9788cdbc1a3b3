import { Client, Runtime } from '@duro/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../../src/index.js';
import { runDuro } from '../support/duro-cli.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();
let provider: PostgresProvider;
let runtime: Runtime;
let client: Client;
let duro: (...args: string[]) => ReturnType<typeof runDuro>;

beforeAll(async () => {
  provider = await database.newProvider({}, 'cli_instances');
  runtime = new Runtime(provider, { dispatcherPollIntervalMs: 20, logLevel: 'silent' });
  runtime.registerActivity('Add', async (_ctx, [a, b]: [number, number]) => a + b);
  runtime.registerOrchestration('Sum', function* (ctx, input: [number, number]) {
    return yield* ctx.scheduleActivity<number>('Add', input);
  });
  runtime.registerOrchestration('Family', function* (ctx) {
    yield* ctx.scheduleSubOrchestrationWithId('Sum', 'family-child', [1, 1]);
    return 'grown';
  });
  runtime.registerOrchestration('Waiter', function* (ctx) {
    const event = yield* ctx.waitForEvent<string>('go');
    const message = yield* ctx.dequeueEvent<string>('inbox');
    return `${event}+${message}`;
  });
  runtime.registerOrchestration('Looper', function* (ctx, round: number) {
    if (round < 3) return yield* ctx.continueAsNew(round + 1);
    return round;
  });
  await runtime.start();
  client = new Client(provider);
  duro = (...args) =>
    runDuro([...args, '--schema', provider.schema], { DATABASE_URL: database.url });
  for (let index = 1; index <= 3; index += 1) {
    await client.startOrchestration(`sum-${index}`, 'Sum', [index, 10]);
    await client.waitForOrchestration(`sum-${index}`, 30_000);
  }
  await client.startOrchestration('family', 'Family');
  await client.waitForOrchestration('family', 30_000);
  await client.startOrchestration('looper', 'Looper', 1);
  await client.waitForOrchestration('looper', 30_000);
});

/** Resolves once the first turn of `instanceId` committed. */
async function running(instanceId: string): Promise<void> {
  while ((await client.getStatus(instanceId)).status !== 'Running') {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterAll(async () => {
  await runtime.shutdown();
});

describe('duro commands on instances', () => {
  it('status shows a completed instance with its output, and --json has the same facts', async () => {
    const text = await duro('status', 'sum-2');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/orchestration: +Sum 1\.0\.0/);
    expect(text.stdout).toMatch(/status: +Completed/);
    expect(text.stdout).toMatch(/output: +12/);
    const json = JSON.parse((await duro('status', 'sum-2', '--json')).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ instanceId: 'sum-2', status: 'Completed', output: 12 });
  });

  it('status of an unknown instance says so on standard error and exits 3', async () => {
    const run = await duro('status', 'nobody');
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr: "duro status: instance 'nobody' not found\n",
    });
  });

  it('list filters by name, status and id prefix, newest first, and pages with --limit and --after', async () => {
    const page = await duro('list', '--name', 'Sum', '--limit', '2');
    expect(page.code).toBe(0);
    const next = /next page: --after (\S+)/.exec(page.stdout)?.[1];
    expect(next).toBeDefined();
    const all = JSON.parse((await duro('list', '--name', 'Sum', '--json')).stdout) as {
      instances: { instanceId: string; status: string; createdAtMs: number }[];
      next: string | null;
    };
    expect(all.next).toBeNull();
    expect(all.instances.map((row) => row.instanceId).sort()).toEqual([
      'family-child',
      'sum-1',
      'sum-2',
      'sum-3',
    ]);
    const created = all.instances.map((row) => row.createdAtMs);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const rest = JSON.parse(
      (await duro('list', '--name', 'Sum', '--after', next ?? '', '--limit', '2', '--json')).stdout,
    ) as typeof all;
    expect(rest.instances.map((row) => row.instanceId)).toEqual(
      all.instances.slice(2).map((row) => row.instanceId),
    );
    expect(JSON.parse((await duro('list', '--status', 'Failed', '--json')).stdout)).toEqual({
      instances: [],
      next: null,
    });
    const prefixed = JSON.parse(
      (await duro('list', '--id-prefix', 'sum-', '--json')).stdout,
    ) as typeof all;
    expect(prefixed.instances.map((row) => row.instanceId).sort()).toEqual([
      'sum-1',
      'sum-2',
      'sum-3',
    ]);
    expect((await duro('list', '--status', 'Broken')).code).toBe(2);
    expect((await duro('list', '--after', 'not-a-cursor')).stderr).toContain('not a page cursor');
  });

  it('history prints the events of the current execution, readable and as JSON, and any execution on request', async () => {
    const text = await duro('history', 'sum-1');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('sum-1 execution 1 of 1, 4 events');
    expect(text.stdout).toMatch(/1 +\S+ +OrchestrationStarted/);
    expect(text.stdout).toMatch(/ActivityScheduled/);
    expect(text.stdout).toMatch(/OrchestrationCompleted/);
    const events = JSON.parse((await duro('history', 'sum-1', '--json')).stdout) as {
      kind: string;
    }[];
    expect(events.map((event) => event.kind)).toEqual([
      'OrchestrationStarted',
      'ActivityScheduled',
      'ActivityCompleted',
      'OrchestrationCompleted',
    ]);
    const first = await duro('history', 'looper', '--execution', '1');
    expect(first.stdout).toContain('looper execution 1 of 3');
    expect(first.stdout).toContain('OrchestrationContinuedAsNew');
    expect((await duro('history', 'looper', '--execution', '9')).stderr).toContain(
      'has no execution 9 (it has 1, 2, 3)',
    );
  });

  it('tree draws the root and its sub-orchestrations from any member', async () => {
    const run = await duro('tree', 'family-child');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('family (Family, Completed)\n└── family-child (Sum, Completed)  <\n');
    expect(JSON.parse((await duro('tree', 'family', '--json')).stdout)).toMatchObject({
      instanceId: 'family',
      children: [{ instanceId: 'family-child', children: [] }],
    });
  });

  it('raise and enqueue deliver JSON data that a waiting instance receives, and bad JSON is a usage error', async () => {
    await client.startOrchestration('waiter', 'Waiter');
    const bad = await duro('raise', 'waiter', 'go', 'not json');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('DATA_JSON must be JSON');
    expect((await duro('raise', 'waiter', 'go', '"green"')).code).toBe(0);
    expect((await duro('enqueue', 'waiter', 'inbox', '"hello"')).code).toBe(0);
    const status = await client.waitForOrchestration('waiter', 30_000);
    expect(status).toMatchObject({ status: 'Completed', output: 'green+hello' });
    expect((await duro('raise', 'nobody', 'go')).code).toBe(3);
  });

  it('cancel ends a running instance as failed with the reason', async () => {
    await client.startOrchestration('to-cancel', 'Waiter');
    await running('to-cancel');
    const run = await duro('cancel', 'to-cancel', '--reason', 'operator said so');
    expect(run).toMatchObject({ code: 0, stdout: 'cancellation requested for to-cancel\n' });
    const status = await client.waitForOrchestration('to-cancel', 30_000);
    expect(status.status).toBe('Failed');
    expect(status.error).toContain('operator said so');
  });

  it('delete refuses a running instance without --force (exit 5) and removes a finished tree', async () => {
    await client.startOrchestration('running', 'Waiter');
    await running('running');
    const refused = await duro('delete', 'running');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/^duro delete: .*running/);
    expect((await duro('delete', 'running', '--force')).code).toBe(0);

    const deleted = JSON.parse((await duro('delete', 'family', '--json')).stdout) as Record<
      string,
      number
    >;
    expect(deleted).toMatchObject({ instancesDeleted: 2 });
    expect((await duro('status', 'family-child')).code).toBe(3);
  });

  it('prune deletes old executions behind a progress bar and never the current one', async () => {
    const run = await runDuro(
      ['prune', 'looper', '--keep-last', '1', '--schema', provider.schema],
      { DATABASE_URL: database.url },
      true,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`\r[${'#'.repeat(30)}] 1/1 instances\n`);
    expect(run.stdout).toMatch(/executions deleted: +2/);
    expect(await client.getStatus('looper')).toMatchObject({ status: 'Completed' });
    const everyone = await duro('prune', '--keep-last', '1', '--json');
    expect(JSON.parse(everyone.stdout)).toMatchObject({ executionsDeleted: 0 });
    expect(everyone.stderr).toBe('');
    expect((await duro('prune')).stderr).toContain('say what to prune');
  });

  it('stats and queue-depths count what the schema holds', async () => {
    const stats = JSON.parse((await duro('stats', '--json')).stdout) as Record<string, unknown>;
    expect(stats).toMatchObject({
      failedInstances: 1,
      queues: { orchestratorQueue: 0, workerQueue: 0 },
    });
    expect(stats.completedInstances).toBeGreaterThanOrEqual(4);
    const text = await duro('stats');
    expect(text.stdout).toMatch(/instances: +\d+/);
    const depths = await duro('queue-depths');
    expect(depths.stdout).toMatch(/orchestrator queue: +0\nworker queue: +0\n/);
    expect(JSON.parse((await duro('queue-depths', '--json')).stdout)).toEqual({
      orchestratorQueue: 0,
      workerQueue: 0,
      timerQueue: 0,
    });
  });
});
