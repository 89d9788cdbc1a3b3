import { startDashboard, type RunningDashboard } from '@duro/dashboard';
import type {
  ExecutionTimelineJson,
  InstanceDetailJson,
  InstancePageJson,
  QueuesJson,
  SessionInfo,
  StatusCountsJson,
} from '@duro/dashboard';
import { useTestSchema } from '@duro/test-postgres/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardHttp, type DashboardHttp } from './support/dashboard-http.js';
import {
  BULK_INSTANCES,
  runScenarios,
  SCRIPT_PAYLOAD,
  startScenarioRuntime,
  type ScenarioRuntime,
} from './support/scenario-runtime.js';

const schema = useTestSchema();
let scenarios: ScenarioRuntime;
let dashboard: RunningDashboard;
let http: DashboardHttp;

beforeAll(async () => {
  scenarios = await startScenarioRuntime(schema.databaseUrl, schema.name);
  await runScenarios(scenarios.client);
  dashboard = await startDashboard({
    databaseUrl: schema.databaseUrl,
    schema: schema.name,
    port: 0,
    sampleIntervalMs: 200,
    log: () => undefined,
  });
  http = dashboardHttp(dashboard.url);
});

afterAll(async () => {
  await dashboard?.close();
  await scenarios?.stop();
});

const instanceIds = (page: InstancePageJson) => page.instances.map((row) => row.instanceId);

describe('the dashboard API', () => {
  it('describes its session: the schema, read-only by default, and the listing indexes', async () => {
    const session = await http.json<SessionInfo>('api/session');
    expect(session).toMatchObject({
      schema: schema.name,
      actionsEnabled: false,
      listingIndexes: true,
      sampleIntervalMs: 200,
    });
    expect(session.csrfToken.length).toBeGreaterThanOrEqual(32);
  });

  it('counts instances by the status of their current execution', async () => {
    const { counts } = await http.json<StatusCountsJson>('api/counts');
    expect(Object.fromEntries(counts.map((entry) => [entry.status, entry.count]))).toEqual({
      Running: 3,
      Completed: BULK_INSTANCES + 4,
      Failed: 1,
      ContinuedAsNew: 0,
    });
    expect(counts.every((entry) => entry.precision === 'exact')).toBe(true);
  });

  it('pages instances newest first, and the next page goes on where the last one ended', async () => {
    const first = await http.json<InstancePageJson>('api/instances?limit=25');
    expect(first.instances).toHaveLength(25);
    const created = first.instances.map((row) => row.createdAtMs);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const seen = new Set(instanceIds(first));
    let next = first.next;
    while (next !== null) {
      const page = await http.json<InstancePageJson>(`api/instances?limit=25&after=${next}`);
      for (const id of instanceIds(page)) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
      next = page.next;
    }
    // The bulk instances and their parents, with the children the orders started.
    const total = (await http.json<StatusCountsJson>('api/counts')).counts.reduce(
      (sum, entry) => sum + entry.count,
      0,
    );
    expect(seen.size).toBe(total);
  });

  it('filters by status, orchestration name, version, id prefix and creation time', async () => {
    expect(instanceIds(await http.json('api/instances?status=Failed'))).toEqual(['failing-1']);
    expect(instanceIds(await http.json('api/instances?name=Approval')).sort()).toEqual([
      'approval-1',
      'approval-2',
    ]);
    expect(instanceIds(await http.json('api/instances?name=Approval&version=9.9.9'))).toEqual([]);
    expect(instanceIds(await http.json('api/instances?prefix=bulk-00'))).toHaveLength(9);
    const all = await http.json<InstancePageJson>('api/instances?prefix=bulk-&limit=500');
    const oldest = Math.min(...all.instances.map((row) => row.createdAtMs));
    const onlyOldest = await http.json<InstancePageJson>(
      `api/instances?prefix=bulk-&before=${oldest + 1}`,
    );
    expect(onlyOldest.instances.every((row) => row.createdAtMs === oldest)).toBe(true);
    const fromOldest = await http.json<InstancePageJson>(
      `api/instances?prefix=bulk-&from=${oldest}&limit=500`,
    );
    expect(fromOldest.instances).toHaveLength(BULK_INSTANCES);
  });

  it('refuses a bad filter with a message naming it', async () => {
    const status = await http.request('api/instances?status=Sleeping');
    expect(status.status).toBe(400);
    expect(await status.json()).toEqual({
      error: "status must be one of Running, Completed, Failed, ContinuedAsNew, got 'Sleeping'",
    });
    const cursor = await http.request('api/instances?after=nonsense');
    expect(cursor.status).toBe(400);
    expect(((await cursor.json()) as { error: string }).error).toContain('not a page cursor');
    expect((await http.request('api/instances?limit=9000')).status).toBe(400);
    expect((await http.request('api/instance')).status).toBe(400);
    expect((await http.request('api/instance?id=nobody')).status).toBe(404);
  });

  it('shows an instance with its input, output, custom status, key/values, tree and why', async () => {
    const order = await http.json<InstanceDetailJson>('api/instance?id=order-1');
    expect(order).toMatchObject({
      instanceId: 'order-1',
      orchestrationName: 'ProcessOrder',
      status: 'Completed',
      error: null,
      keyValues: { stage: JSON.stringify('charged') },
      customStatus: JSON.stringify({ stage: 'done' }),
    });
    expect(JSON.parse(order.input ?? 'null')).toEqual({ orderId: 1, note: SCRIPT_PAYLOAD });
    expect(JSON.parse(order.output ?? 'null')).toMatchObject({ shipped: 'shipped 1' });
    expect(order.customStatusVersion).toBe(2);
    const child = order.tree?.root.children[0];
    expect(order.tree?.root.instanceId).toBe('order-1');
    expect(child).toMatchObject({ orchestrationName: 'ShipOrder', status: 'Completed' });
    expect(order.why.verdict).toMatch(/^not running: execution 1 Completed/);
    // The child's page shows the same tree, from its root.
    const fromChild = await http.json<InstanceDetailJson>(
      `api/instance?id=${encodeURIComponent(child?.instanceId ?? '')}`,
    );
    expect(fromChild.parentInstanceId).toBe('order-1');
    expect(fromChild.tree?.root.instanceId).toBe('order-1');
  });

  it('shows how a failed instance failed, and why a waiting one does not run', async () => {
    const failing = await http.json<InstanceDetailJson>('api/instance?id=failing-1');
    expect(failing.status).toBe('Failed');
    expect(failing.output).toBeNull();
    expect(failing.error?.message).toContain('card declined <b>twice</b>');
    const gpu = await http.json<InstanceDetailJson>('api/instance?id=gpu-1');
    expect(gpu.why.findings.map((finding) => finding.text).join('\n')).toContain(
      "activity Render #2 (tag 'gpu') has waited",
    );
  });

  it('lists the executions of an instance that continued as new, and the timeline of each', async () => {
    const looper = await http.json<InstanceDetailJson>('api/instance?id=looper-1');
    expect(looper.executions.map((execution) => [execution.executionId, execution.status])).toEqual(
      [
        [3, 'Completed'],
        [2, 'ContinuedAsNew'],
        [1, 'ContinuedAsNew'],
      ],
    );
    const first = await http.json<ExecutionTimelineJson>('api/execution?id=looper-1&execution=1');
    expect(first.events.map((event) => event.kind)).toEqual([
      'OrchestrationStarted',
      'OrchestrationContinuedAsNew',
    ]);
    expect((await http.request('api/execution?id=looper-1&execution=7')).status).toBe(404);
  });

  it('lays out the timeline: turns, the activity, the timer and the sub-orchestration, each timed', async () => {
    const timeline = await http.json<ExecutionTimelineJson>('api/execution?id=order-1&execution=1');
    expect(timeline.spans.map((span) => [span.kind, span.label, span.outcome])).toEqual([
      ['activity', 'Charge', 'completed'],
      ['timer', 'timer', 'completed'],
      ['subOrchestration', 'ShipOrder', 'completed'],
    ]);
    for (const span of timeline.spans) expect(span.endMs).toBeGreaterThanOrEqual(span.startMs);
    const [, timer] = timeline.spans;
    expect((timer?.endMs ?? 0) - (timer?.startMs ?? 0)).toBeGreaterThanOrEqual(30);
    expect(timeline.spans[2]?.childInstanceId).toBe(
      (await http.json<InstanceDetailJson>('api/instance?id=order-1')).tree?.root.children[0]
        ?.instanceId,
    );
    // Started; the charge came back; the timer fired; the child completed.
    expect(timeline.turns.map((turn) => turn.trigger)).toEqual([
      'OrchestrationStarted ProcessOrder',
      'ActivityCompleted (Charge)',
      'TimerFired (timer)',
      'SubOrchestrationCompleted (ShipOrder)',
    ]);
    expect(timeline.events.map((event) => event.turn)).toEqual(
      [...timeline.events.map((event) => event.turn)].sort((a, b) => a - b),
    );
    expect(timeline.eventCount).toBe(timeline.events.length);
  });

  it('shows a wait for an event as open until the event comes', async () => {
    const timeline = await http.json<ExecutionTimelineJson>(
      'api/execution?id=approval-2&execution=1',
    );
    expect(timeline.spans.map((span) => [span.kind, span.label, span.outcome, span.endMs])).toEqual(
      [['event', 'approve', 'pending', null]],
    );
    expect(timeline.endMs).toBeGreaterThan(timeline.spans[0]?.startMs ?? Infinity);
  });

  it('counts the attempts of a retried activity', async () => {
    const timeline = await http.json<ExecutionTimelineJson>('api/execution?id=flaky-1&execution=1');
    const tries = timeline.spans.filter((span) => span.kind === 'activity');
    expect(tries.map((span) => [span.attempt, span.outcome])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'completed'],
    ]);
    expect(timeline.spans.filter((span) => span.kind === 'timer')).toHaveLength(2);
  });

  it('shows the queues, the waiting tagged activity, and samples for the plots', async () => {
    let queues = await http.json<QueuesJson>('api/queues');
    while (queues.samples.length < 3) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      queues = await http.json<QueuesJson>('api/queues');
    }
    expect(queues.workerQueue.ready.count).toBe(1);
    expect(queues.workerQueue.readyByTag).toEqual([{ tag: 'gpu', count: 1 }]);
    expect(queues.instanceLocks.held.count).toBe(0);
    const last = queues.samples.at(-1);
    expect(last).toMatchObject({ workerReady: 1, orchestratorReady: 0 });
    expect(last?.orchestratorMessagesPerSecond).not.toBeNull();
    expect(queues.samples.map((sample) => sample.atMs)).toEqual(
      [...queues.samples.map((sample) => sample.atMs)].sort((a, b) => a - b),
    );
  });
});
