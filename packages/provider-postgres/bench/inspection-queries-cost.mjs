// Measures the inspection reads of `duro list` and `duro ui` on a schema of many instances (a
// million by default): pages newest first with each filter, a deep page, counts by status, and
// the queue overview. Fills a new schema with SQL (instances and executions in duroxide-pg's
// shapes), times each read through SchemaInspector (the code the dashboard runs), and prints the
// plan of every statement a read sent (EXPLAIN ANALYZE). Needs the package built (pnpm build)
// and DATABASE_URL.
//
//   DATABASE_URL=postgres://... node bench/inspection-queries-cost.mjs [instances] [--duroxide-only] [--keep]
//
// --duroxide-only migrates the duroxide track alone (the shape a Rust duroxide-pg leaves: no
// listing indexes); --keep leaves the schema for further looks.
import { runMigrations } from '@duro/provider-postgres';
import { SchemaInspector } from '@duro/provider-postgres/inspection';
import os from 'node:os';
import pg from 'pg';

const args = process.argv.slice(2);
const INSTANCES = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const DUROXIDE_ONLY = args.includes('--duroxide-only');
const KEEP = args.includes('--keep');
const RUNS = 7;
const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL');

const pool = new pg.Pool({ connectionString: url, max: 4 });
const schema = `duro_bench_inspect_${Math.random().toString(16).slice(2, 10)}`;
const s = `"${schema}"`;

async function describeMachine() {
  const { rows } = await pool.query(
    `SELECT version() AS version, current_setting('synchronous_commit') AS synchronous_commit,
            current_setting('fsync') AS fsync, current_setting('shared_buffers') AS shared_buffers,
            current_setting('max_parallel_workers_per_gather') AS parallel_workers`,
  );
  const cpus = os.cpus();
  console.log(`PostgreSQL: ${rows[0].version}`);
  console.log(
    `  synchronous_commit=${rows[0].synchronous_commit} fsync=${rows[0].fsync} ` +
      `shared_buffers=${rows[0].shared_buffers} max_parallel_workers_per_gather=${rows[0].parallel_workers}`,
  );
  console.log(
    `machine: ${cpus.length} x ${cpus[0]?.model ?? 'unknown cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
      `load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}, Node.js ${process.version}`,
  );
}

async function fill() {
  const started = performance.now();
  await runMigrations(pool, { schema, extensions: !DUROXIDE_ONLY });
  // Names: 60 % ProcessOrder, 20 % SendEmail, 19.9 % Nightly, 0.1 % Migrate. Statuses of the
  // current execution: 8 % Running, 1 % Failed, 0.001 % between two executions, else Completed.
  // Every 100th instance continued as new twice; every 50th is a child of the one before it.
  // Creation times are 2.5 s apart, the newest now.
  await pool.query(
    `INSERT INTO ${s}.instances (instance_id, orchestration_name, orchestration_version,
            current_execution_id, created_at, updated_at, parent_instance_id, custom_status_version)
     SELECT (ARRAY['order','email','nightly','migrate'])[k] || '-' || g,
            (ARRAY['ProcessOrder','SendEmail','Nightly','Migrate'])[k],
            CASE WHEN g % 10 < 7 THEN '1.0.0' ELSE '1.1.0' END,
            CASE WHEN g % 100 = 0 THEN 3 ELSE 1 END,
            now() - ($1 - g) * interval '2500 ms',
            now() - ($1 - g) * interval '2500 ms' + interval '3 s',
            CASE WHEN g % 50 = 1 AND g > 1 THEN 'order-' || (g - 1) END,
            0
       FROM (SELECT g, CASE WHEN g % 1000 = 7 THEN 4 WHEN g % 10 = 9 THEN 3
                            WHEN g % 10 < 6 THEN 1 ELSE 2 END AS k
               FROM generate_series(1, $1::int) g) numbered`,
    [INSTANCES],
  );
  await pool.query(
    `INSERT INTO ${s}.executions (instance_id, execution_id, status, started_at, completed_at)
     SELECT i.instance_id, x,
            CASE WHEN x < i.current_execution_id THEN 'ContinuedAsNew'
                 WHEN g % 100000 = 0 THEN 'ContinuedAsNew'
                 WHEN g % 100 BETWEEN 1 AND 8 THEN 'Running'
                 WHEN g % 100 = 99 THEN 'Failed'
                 ELSE 'Completed' END,
            i.created_at,
            CASE WHEN g % 100 BETWEEN 1 AND 8 THEN NULL ELSE i.created_at + interval '3 s' END
       FROM (SELECT instance_id, current_execution_id, created_at,
                    split_part(instance_id, '-', 2)::int AS g FROM ${s}.instances) i,
            generate_series(1, i.current_execution_id) x`,
  );
  // A working system's queues: 2,000 timers not yet due, 1,000 activities waiting, 200 running.
  await pool.query(
    `INSERT INTO ${s}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
     SELECT 'order-' || g, '{"TimerFired":{"instance":"order-' || g || '","execution_id":1,"id":2,"fire_at_ms":0}}',
            now() + g * interval '1 s', now()
       FROM generate_series(1, 2000) g`,
  );
  await pool.query(
    `INSERT INTO ${s}.worker_queue (work_item, visible_at, created_at, instance_id, execution_id,
            activity_id, lock_token, locked_until)
     SELECT '{"ActivityExecute":{"instance":"order-' || g || '","execution_id":1,"id":2,"name":"Charge","input":"1"}}',
            now(), now(), 'order-' || g, 1, 2,
            CASE WHEN g <= 200 THEN 'lock-' || g END,
            CASE WHEN g <= 200 THEN (extract(epoch FROM now()) * 1000)::bigint + 30000 END
       FROM generate_series(1, 1200) g`,
  );
  for (const table of ['instances', 'executions', 'orchestrator_queue', 'worker_queue']) {
    await pool.query(`VACUUM ANALYZE ${s}.${table}`);
  }
  console.log(
    `filled ${schema}: ${INSTANCES.toLocaleString('en-US')} instances ` +
      `(${DUROXIDE_ONLY ? 'duroxide track only, no listing indexes' : 'with the duro track'}) ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** An inspector whose statements are recorded, so their plans can be shown. */
function recordingInspector() {
  const recorded = [];
  const recorder = {
    query(sql, values) {
      recorded.push({ sql, values });
      return pool.query(sql, values);
    },
  };
  return { inspector: new SchemaInspector(recorder, schema), recorded };
}

async function measure(label, read) {
  const { inspector, recorded } = recordingInspector();
  for (let warm = 0; warm < 2; warm += 1) await read(inspector);
  const times = [];
  let result;
  for (let run = 0; run < RUNS; run += 1) {
    recorded.length = 0;
    const started = performance.now();
    result = await read(inspector);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const max = times.at(-1);
  console.log(
    `\n== ${label}: median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms over ${RUNS} runs ` +
      `(${recorded.length} statement(s); ${summarize(result)})`,
  );
  for (const { sql, values } of recorded) {
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, values);
    console.log(`-- ${sql.replace(/\s+/g, ' ').slice(0, 160)}...`);
    for (const row of rows) console.log(`   ${row['QUERY PLAN']}`);
  }
  return { label, median, max, result };
}

function summarize(result) {
  if (Array.isArray(result))
    return result.map((c) => `${c.status} ${c.count} ${c.precision}`).join(', ');
  if (result?.instances) {
    return `${result.instances.length} instances${result.searchedBackToMs !== null ? ', stopped at the bound' : ''}`;
  }
  return 'overview';
}

await describeMachine();
await fill();
const middle = Date.now() - (INSTANCES / 2) * 2_500;
const results = [];
const page = (label, request) => measure(label, (inspector) => inspector.listInstances(request));
const deep = async (label, request) => {
  const { inspector } = recordingInspector();
  // A cursor in the middle of the list: the page after the last instance created before it.
  const start = await inspector.listInstances({ ...request, createdBeforeMs: middle, limit: 1 });
  return page(label, { ...request, after: start.next ?? undefined });
};
results.push(await page('first page, no filter', {}));
results.push(await deep('page in the middle, no filter (cursor)', {}));
results.push(await page('status Running', { status: 'Running' }));
results.push(await page('status Failed', { status: 'Failed' }));
results.push(await deep('status Failed, page in the middle', { status: 'Failed' }));
results.push(
  await page('status ContinuedAsNew (between executions)', { status: 'ContinuedAsNew' }),
);
results.push(await page('name Migrate (0.1 %)', { orchestrationName: 'Migrate' }));
results.push(
  await page('name Migrate and status Failed', { orchestrationName: 'Migrate', status: 'Failed' }),
);
results.push(await page('version 1.1.0', { orchestrationVersion: '1.1.0' }));
results.push(await page("id prefix 'order-12345'", { idPrefix: 'order-12345' }));
results.push(
  await page("id prefix 'order-' and status Failed (none)", {
    idPrefix: 'order-',
    status: 'Failed',
  }),
);
results.push(
  await page('created within one hour, mid-range', {
    createdFromMs: middle - 3_600_000,
    createdBeforeMs: middle,
  }),
);
results.push(await measure('counts by status', (inspector) => inspector.countInstancesByStatus()));
results.push(await measure('queue overview', (inspector) => inspector.readQueueOverview()));

console.log('\nsummary (median / max of each read, ms):');
for (const { label, median, max } of results) {
  console.log(
    `  ${label.padEnd(48)} ${median.toFixed(1).padStart(7)} ${max.toFixed(1).padStart(7)}`,
  );
}
if (!KEEP) await pool.query(`DROP SCHEMA ${s} CASCADE`);
else console.log(`kept schema ${schema}`);
await pool.end();
