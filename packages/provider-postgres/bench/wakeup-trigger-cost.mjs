// Measures what the duro wake-up triggers (migrations/duro/0001) add to the hot path: the same
// orchestration turns and activity round trips run on a schema with the duro track and on one
// without, alternating in rounds so both see the same server conditions. Prints milliseconds per
// turn and per activity round trip. Needs the package built (pnpm build) and DATABASE_URL.
//
//   DATABASE_URL=postgres://... node bench/wakeup-trigger-cost.mjs [turns per round] [rounds] [synchronous_commit]
//
// Pass synchronous_commit `off` to take the commit flush out of the numbers and see the CPU cost.
import { runMigrations } from '@duro/provider-postgres';
import os from 'node:os';
import pg from 'pg';

const TURNS = Number(process.argv[2] ?? 500);
const ROUNDS = Number(process.argv[3] ?? 6);
const SYNCHRONOUS_COMMIT = process.argv[4] ?? 'on';
const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL');

const pool = new pg.Pool({ connectionString: url, max: 2 });
const db = await pool.connect();
await db.query(`SET synchronous_commit = ${SYNCHRONOUS_COMMIT === 'off' ? 'off' : 'on'}`);
const suffix = Math.random().toString(16).slice(2, 10);
const schemas = {
  with: `duro_bench_wakeup_on_${suffix}`,
  without: `duro_bench_wakeup_off_${suffix}`,
};
await runMigrations(pool, { schema: schemas.with, extensions: true });
await runMigrations(pool, { schema: schemas.without, extensions: false });

async function turn(schema, i) {
  const id = `bench-${i}`;
  const start = JSON.stringify({
    StartOrchestration: { instance: id, orchestration: 'B', input: '', version: '1' },
  });
  await db.query(
    `SELECT "${schema}".enqueue_orchestrator_work($1, $2, to_timestamp($3 / 1000.0))`,
    [id, start, Date.now() - 1],
  );
  const { rows } = await db.query(`SELECT * FROM "${schema}".fetch_orchestration_item($1, 30000)`, [
    Date.now(),
  ]);
  const activity = {
    ActivityExecute: { instance: id, execution_id: 1, id: 2, name: 'A', input: '' },
  };
  await db.query(`SELECT "${schema}".ack_orchestration_item($1, $2, 1, '[]', $3, '[]', $4)`, [
    rows[0].out_lock_token,
    Date.now(),
    JSON.stringify([activity]),
    JSON.stringify({ orchestration_name: 'B', orchestration_version: '1' }),
  ]);
}

async function activity(schema, i) {
  const { rows } = await db.query(`SELECT * FROM "${schema}".fetch_work_item($1, 30000)`, [
    Date.now(),
  ]);
  const done = JSON.stringify({
    ActivityCompleted: { instance: `bench-${i}`, execution_id: 1, id: 2, result: '' },
  });
  await db.query(`SELECT "${schema}".ack_worker($1, $2, $3, $4)`, [
    rows[0].out_lock_token,
    `bench-${i}`,
    done,
    Date.now(),
  ]);
}

const totals = { with: { turn: 0, activity: 0 }, without: { turn: 0, activity: 0 } };
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of round % 2 ? ['with', 'without'] : ['without', 'with']) {
    const schema = schemas[variant];
    await db.query(
      `TRUNCATE "${schema}".orchestrator_queue, "${schema}".worker_queue, "${schema}".instances, "${schema}".executions, "${schema}".instance_locks`,
    );
    let t0 = performance.now();
    for (let i = 0; i < TURNS; i++) await turn(schema, i);
    if (round > 0) totals[variant].turn += performance.now() - t0;
    t0 = performance.now();
    for (let i = 0; i < TURNS; i++) await activity(schema, i);
    if (round > 0) totals[variant].activity += performance.now() - t0;
  }
}

// Server side only, without round trips or commits: activity inserts in a loop inside one
// statement (each insert is a statement of its own and fires the statement trigger), so the
// difference is the trigger's own execution cost.
async function serverLoop(schema) {
  await db.query(`TRUNCATE "${schema}".worker_queue`);
  const t0 = performance.now();
  await db.query(`DO $$
    BEGIN
      FOR i IN 1..${TURNS * 8} LOOP
        PERFORM "${schema}".enqueue_worker_work('{"ActivityExecute":{}}', ${Date.now() - 1});
      END LOOP;
    END $$`);
  return (performance.now() - t0) / (TURNS * 8);
}
const loop = { with: 0, without: 0 };
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of round % 2 ? ['with', 'without'] : ['without', 'with']) {
    const perCycle = await serverLoop(schemas[variant]);
    if (round > 0) loop[variant] += perCycle / (ROUNDS - 1);
  }
}

const measured = TURNS * (ROUNDS - 1);
const { rows } = await db.query('SHOW server_version');
console.log(
  `PostgreSQL ${rows[0].server_version}, ${os.cpus().length} × ${os.cpus()[0]?.model}, synchronous_commit ${SYNCHRONOUS_COMMIT}`,
);
console.log(`${measured} turns and activity round trips per variant (first round discarded)`);
for (const variant of ['without', 'with']) {
  const t = totals[variant];
  console.log(
    `${variant.padEnd(7)} triggers: ${(t.turn / measured).toFixed(3)} ms per turn (enqueue + fetch + ack), ` +
      `${(t.activity / measured).toFixed(3)} ms per activity (fetch + ack)`,
  );
}
console.log(
  `server-side cost of one activity insert (no round trip): ` +
    `${(loop.without * 1000).toFixed(1)} µs without triggers, ${(loop.with * 1000).toFixed(1)} µs with`,
);
for (const schema of Object.values(schemas)) await db.query(`DROP SCHEMA "${schema}" CASCADE`);
db.release();
await pool.end();
