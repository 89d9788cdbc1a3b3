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
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardHttp, type DashboardHttp } from './support/dashboard-http.js';

/** Scenarios of the Rust catalogue that write every kind of history the timeline lays out. */
const SCENARIOS = [
  'activity-retry',
  'timer',
  'external-event',
  'queue-dequeue',
  'sub-orchestration',
  'continue-as-new',
  'kv-state',
  'custom-status',
  'sessions',
  'orchestration-failure',
  'cancel-cascades-to-child',
];

const schema = useTestSchema();
let dashboard: RunningDashboard;
let http: DashboardHttp;
let outcomes: Awaited<ReturnType<typeof runRustScenarios>>;

/** Loads the Rust bridge, failing with what it needs when it was not built. */
async function loadNative() {
  try {
    return await import('@duro/native');
  } catch (error) {
    throw new Error(
      'this test needs the native build of @duro/native: install a Rust toolchain (cargo) and run `pnpm --filter @duro/native build`',
      { cause: error },
    );
  }
}

async function runRustScenarios() {
  const native = await loadNative();
  // The Rust duroxide-pg runner migrates the schema (without duro's track), and the Rust runtime
  // writes every row the dashboard reads.
  await native.migrateWithDuroxidePg(schema.databaseUrl, schema.name);
  return native.runRustScenariosOnPostgres(schema.databaseUrl, schema.name, {
    instancePrefix: 'rust-',
    names: SCENARIOS,
    timeoutMs: null,
  });
}

beforeAll(async () => {
  outcomes = await runRustScenarios();
  dashboard = await startDashboard({
    databaseUrl: schema.databaseUrl,
    schema: schema.name,
    port: 0,
    sampleIntervalMs: 200,
    log: () => undefined,
  });
  http = dashboardHttp(dashboard.url);
}, 300_000);

afterAll(async () => {
  await dashboard?.close();
});

describe('the dashboard on a schema the Rust duroxide-pg migrated and the Rust runtime wrote', () => {
  it('says the schema lacks the listing indexes, and still counts and lists every instance', async () => {
    const session = await http.json<SessionInfo>('api/session');
    expect(session.listingIndexes).toBe(false);
    const pool = new pg.Pool({ connectionString: schema.databaseUrl, max: 1 });
    const { rows } = await pool.query<{ instance_id: string }>(
      `SELECT instance_id FROM "${schema.name}".instances`,
    );
    await pool.end();
    const { counts } = await http.json<StatusCountsJson>('api/counts');
    expect(counts.reduce((sum, entry) => sum + entry.count, 0)).toBe(rows.length);
    const listed: string[] = [];
    let next: string | null = null;
    do {
      const page: InstancePageJson = await http.json(
        `api/instances?limit=7${next === null ? '' : `&after=${next}`}`,
      );
      listed.push(...page.instances.map((row) => row.instanceId));
      next = page.next;
    } while (next !== null);
    expect(listed.sort()).toEqual(rows.map((row) => row.instance_id).sort());
  });

  it('shows each scenario instance with the status, output and error the Rust runtime reported', async () => {
    for (const outcome of outcomes) {
      const detail = await http.json<InstanceDetailJson>(
        `api/instance?id=${encodeURIComponent(outcome.instanceId)}`,
      );
      expect(detail.status, outcome.name).toBe(outcome.status);
      if (outcome.status === 'Completed') expect(detail.output, outcome.name).toBe(outcome.output);
      else expect(detail.error?.message, outcome.name).toBe(outcome.error);
      if (outcome.customStatus !== null) expect(detail.customStatus).toBe(outcome.customStatus);
      expect(detail.why.verdict, outcome.name).toMatch(/^not running: execution \d+ /);
    }
  });

  it('lays out every execution of every instance, each event read', async () => {
    for (const instance of outcomes.flatMap((outcome) => outcome.instances)) {
      for (const execution of instance.executions) {
        const timeline = await http.json<ExecutionTimelineJson>(
          `api/execution?id=${encodeURIComponent(instance.instanceId)}&execution=${execution.executionId}`,
        );
        const kinds = execution.events.map((json) => (JSON.parse(json) as { type: string }).type);
        expect(timeline.events.map((event) => event.kind)).toEqual(
          kinds.map((kind) => WIRE_TO_KIND[kind] ?? kind),
        );
        expect(timeline.turns.length).toBeGreaterThan(0);
      }
    }
  });

  it('draws the Rust sub-orchestration tree and the retried activity', async () => {
    const parent = outcomes.find((outcome) => outcome.name === 'sub-orchestration');
    const detail = await http.json<InstanceDetailJson>(
      `api/instance?id=${encodeURIComponent(parent?.instanceId ?? '')}`,
    );
    expect(detail.tree?.root.children.map((child) => child.instanceId)).toEqual(
      (parent?.instances ?? [])
        .map((instance) => instance.instanceId)
        .filter((id) => id !== parent?.instanceId),
    );
    const retry = outcomes.find((outcome) => outcome.name === 'activity-retry');
    const timeline = await http.json<ExecutionTimelineJson>(
      `api/execution?id=${encodeURIComponent(retry?.instanceId ?? '')}&execution=1`,
    );
    const attempts = timeline.spans.filter((span) => span.kind === 'activity');
    expect(attempts.length).toBeGreaterThan(1);
    expect(attempts.map((span) => span.attempt)).toEqual(attempts.map((_, index) => index + 1));
  });

  it('reads the queues and samples them', async () => {
    await expect
      .poll(async () => (await http.json<QueuesJson>('api/queues')).samples.length)
      .toBeGreaterThan(1);
  });
});

/** duroxide's wire tags that name their event kind differently (see `eventWireTag` in @duro/core). */
const WIRE_TO_KIND: Readonly<Record<string, string>> = {
  ExternalSubscribedPersistent: 'QueueSubscribed',
  ExternalEventPersistent: 'QueueEventDelivered',
  ExternalSubscribedPersistentCancelled: 'QueueSubscriptionCancelled',
};
