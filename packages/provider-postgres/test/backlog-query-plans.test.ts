import { Client, Runtime, type OrchestrationContext } from '@duro/core';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();
const BACKLOG = 100_000;
/** The tables a backlog of waiting timers fills, and that every turn reads or writes. */
const BACKLOG_TABLES = ['instances', 'executions', 'history', 'orchestrator_queue'] as const;
const TEMPLATE = 'backlog-template';

const schema = database.newSchemaName('plans');
afterAll(() => database.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));

/** The test database's URL with every session of the pool planning prepared statements generically. */
function urlWithGenericPlans(): string {
  const url = new URL(database.url);
  url.searchParams.set('options', '-c plan_cache_mode=force_generic_plan');
  return url.toString();
}

/** Waits until no backend named `applicationName` is connected: each reports its last counters as it exits. */
async function untilDisconnected(applicationName: string): Promise<void> {
  const connected = async (): Promise<boolean> =>
    (
      await database.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ])
    ).length > 0;
  while (await connected()) await new Promise((resolve) => setTimeout(resolve, 50));
  // The exit report lands just after the backend leaves pg_stat_activity.
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** Copies every row of the template instance to `BACKLOG` instances of its own, in SQL. */
async function cloneTemplate(): Promise<void> {
  const applicationName = `duro_plans_clone_${process.pid}`;
  const cloner = new pg.Client({
    connectionString: database.url,
    application_name: applicationName,
  });
  await cloner.connect();
  try {
    for (const table of BACKLOG_TABLES) {
      const { rows: columns } = await cloner.query<{ column_name: string; data_type: string }>(
        `SELECT column_name, data_type FROM information_schema.columns
          WHERE table_schema = $1 AND table_name = $2 AND column_name <> 'id'
          ORDER BY ordinal_position`,
        [schema, table],
      );
      const names = columns.map((c) => `"${c.column_name}"`).join(', ');
      const values = columns
        .map(({ column_name: name, data_type: type }) => {
          if (name === 'instance_id') return `'backlog-' || n`;
          // Work items and events name their instance inside the JSON text.
          if (type === 'text')
            return `replace("${name}", '"${TEMPLATE}"', '"backlog-' || n || '"')`;
          return `"${name}"`;
        })
        .join(', ');
      await cloner.query(
        `INSERT INTO "${schema}".${table} (${names})
         SELECT ${values} FROM "${schema}".${table}, generate_series(1, ${BACKLOG}) AS n
          WHERE instance_id = '${TEMPLATE}'`,
      );
      await cloner.query(`ANALYZE "${schema}".${table}`);
    }
  } finally {
    await cloner.end();
  }
  await untilDisconnected(applicationName);
}

interface ScanCounts {
  readonly relname: string;
  readonly seq_scan: string;
  readonly idx_scan: string;
}

/** Per backlog table, its seq_scan and idx_scan counters. */
async function scanCounts(): Promise<Record<string, { seq: number; idx: number }>> {
  const counts = await database.query<ScanCounts>(
    `SELECT relname, seq_scan::text, idx_scan::text FROM pg_stat_user_tables
      WHERE schemaname = $1 AND relname = ANY($2)`,
    [schema, [...BACKLOG_TABLES]],
  );
  expect(counts.map((c) => c.relname).sort()).toEqual([...BACKLOG_TABLES].sort());
  return Object.fromEntries(
    counts.map((c) => [c.relname, { seq: Number(c.seq_scan), idx: Number(c.idx_scan) }]),
  );
}

/**
 * A backend that stays connected reports its counters at most once a second while busy, and
 * within 10 s of going idle (PostgreSQL's PGSTAT_IDLE_INTERVAL): waiting that long means every
 * scan made before now has been counted.
 */
const PENDING_COUNTERS_MS = 11_000;

it(`no turn, activity, timer or client read scans a table holding ${BACKLOG} waiting timers, under generic plans`, async () => {
  const applicationName = `duro_plans_${process.pid}`;
  const provider = await PostgresProvider.connectWithSchema(urlWithGenericPlans(), schema, {
    applicationName,
    poolSize: 4,
  });
  const probe = new pg.Client({ connectionString: urlWithGenericPlans() });
  await probe.connect();
  const shown = await probe.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
  await probe.end();
  expect(shown.rows[0]?.plan_cache_mode).toBe('force_generic_plan');

  const runtime = new Runtime(provider, {
    dispatcherPollIntervalMs: 10,
    orchestrationConcurrency: 2,
    workerConcurrency: 2,
    logLevel: 'silent',
  });
  runtime.registerOrchestration('WaitADay', function* (ctx: OrchestrationContext) {
    yield ctx.scheduleTimer(86_400_000);
  });
  runtime.registerActivity('Greet', async (_ctx, name: string) => `hello ${name}`);
  runtime.registerOrchestration('Child', function* (ctx: OrchestrationContext, name: string) {
    const greeting: unknown = yield ctx.scheduleActivity('Greet', name);
    return greeting;
  });
  runtime.registerOrchestration('Busy', function* (ctx: OrchestrationContext, round: number) {
    ctx.setValue('round', String(round));
    yield ctx.scheduleTimer(5);
    let event: unknown = 'no event';
    if (round === 0) {
      // Committed with the wait's subscription: a client that sees it can raise the event.
      ctx.setCustomStatus('waiting');
      event = yield ctx.waitForEvent('go');
    }
    const [local, child] = (yield ctx.all([
      ctx.scheduleActivity('Greet', String(event)),
      ctx.scheduleSubOrchestration('Child', `child of ${ctx.instanceId} ${round}`),
    ])) as unknown[];
    if (round < 2) return yield* ctx.continueAsNew(round + 1);
    return { local, child };
  });
  const client = new Client(provider);
  let before: Awaited<ReturnType<typeof scanCounts>> | undefined;
  try {
    // The provider's connections plan their statements while the tables are small, and keep
    // those plans as the backlog arrives, as a long-running worker's connections would.
    await runtime.start();
    await client.startOrchestration(TEMPLATE, 'WaitADay');
    while ((await client.getStatus(TEMPLATE)).status !== 'Running')
      await new Promise((resolve) => setTimeout(resolve, 10));
    await cloneTemplate();
    await new Promise((resolve) => setTimeout(resolve, PENDING_COUNTERS_MS));
    before = await scanCounts();

    const ids = Array.from({ length: 6 }, (_, i) => `busy-${i}`);
    for (const id of ids) await client.startOrchestration(id, 'Busy', 0);
    for (const id of ids) {
      await client.waitForStatusChange(id, 0, 10, 10_000);
      await client.raiseEvent(id, 'go', id);
    }
    for (const id of ids) {
      const done = await client.waitForOrchestration(id, 20_000);
      expect(done).toMatchObject({
        status: 'Completed',
        output: { local: { ok: 'hello no event' } },
      });
    }
    expect(await client.getValue('busy-0', 'round')).toBe('2');
  } finally {
    await runtime.shutdown(5_000);
    await provider.close();
  }
  await untilDisconnected(applicationName);
  if (before === undefined) throw new Error('the backlog was never set up');

  const after = await scanCounts();
  const delta = (kind: 'seq' | 'idx'): Record<string, number> =>
    Object.fromEntries(
      BACKLOG_TABLES.map((table) => [
        table,
        (after[table]?.[kind] ?? 0) - (before[table]?.[kind] ?? 0),
      ]),
    );
  expect(delta('seq')).toEqual(Object.fromEntries(BACKLOG_TABLES.map((table) => [table, 0])));
  for (const [table, scans] of Object.entries(delta('idx'))) {
    expect(scans, `index scans of ${table}`).toBeGreaterThan(0);
  }
}, 120_000);
