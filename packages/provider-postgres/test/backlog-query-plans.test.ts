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

/** Copies every row of the template instance to `BACKLOG` instances of its own, in SQL. */
async function cloneTemplate(): Promise<void> {
  for (const table of BACKLOG_TABLES) {
    const columns = await database.query<{ column_name: string; data_type: string }>(
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
        if (type === 'text') return `replace("${name}", '"${TEMPLATE}"', '"backlog-' || n || '"')`;
        return `"${name}"`;
      })
      .join(', ');
    await database.query(
      `INSERT INTO "${schema}".${table} (${names})
       SELECT ${values} FROM "${schema}".${table}, generate_series(1, ${BACKLOG}) AS n
        WHERE instance_id = '${TEMPLATE}'`,
    );
    await database.query(`ANALYZE "${schema}".${table}`);
    await database.query(
      `SELECT pg_stat_reset_single_table_counters('"${schema}".${table}'::regclass)`,
    );
  }
}

interface ScanCounts {
  readonly relname: string;
  readonly seq_scan: string;
  readonly idx_scan: string;
}

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
  runtime.registerActivity('Greet', async (_ctx, name: string) => `hello ${name}`);
  runtime.registerOrchestration('WaitADay', function* (ctx: OrchestrationContext) {
    yield ctx.scheduleTimer(86_400_000);
  });
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
  try {
    await runtime.start();
    await client.startOrchestration(TEMPLATE, 'WaitADay');
    while ((await client.getStatus(TEMPLATE)).status !== 'Running')
      await new Promise((resolve) => setTimeout(resolve, 10));
    await cloneTemplate();

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

  // A backend sends its table counters when it exits.
  while (
    (
      await database.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ])
    ).length > 0
  )
    await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const counts = await database.query<ScanCounts>(
    `SELECT relname, seq_scan::text, idx_scan::text FROM pg_stat_user_tables
      WHERE schemaname = $1 AND relname = ANY($2)`,
    [schema, [...BACKLOG_TABLES]],
  );
  expect(counts.map((c) => c.relname).sort()).toEqual([...BACKLOG_TABLES].sort());
  const seqScans = Object.fromEntries(counts.map((c) => [c.relname, Number(c.seq_scan)]));
  expect(seqScans).toEqual(Object.fromEntries(BACKLOG_TABLES.map((table) => [table, 0])));
  for (const table of counts) expect(Number(table.idx_scan)).toBeGreaterThan(0);
}, 120_000);
