// Measures what a turn's fetch costs as an instance's history grows, with the history cache
// (the provider holds the history and fetches only the new events) and without it (every fetch
// reads the whole history). One instance per provider takes turns of one external event each;
// the two providers alternate turn by turn so both see the same server conditions. Prints the
// mean fetch time, ms, per band of history length. Needs the package built (pnpm build) and
// DATABASE_URL.
//
//   DATABASE_URL=postgres://... node bench/history-fetch-cost.mjs [events] [band]
import { PostgresProvider } from '@duro/provider-postgres';
import os from 'node:os';
import pg from 'pg';

const EVENTS = Number(process.argv[2] ?? 1000);
const BAND = Number(process.argv[3] ?? 200);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL');

const suffix = Math.random().toString(16).slice(2, 10);
const variants = [
  { label: 'cached', schema: `duro_bench_history_on_${suffix}`, historyCacheSize: 256 },
  { label: 'uncached', schema: `duro_bench_history_off_${suffix}`, historyCacheSize: 0 },
];
for (const variant of variants) {
  variant.provider = await PostgresProvider.connectWithSchema(url, variant.schema, {
    historyCacheSize: variant.historyCacheSize,
  });
  variant.bands = [];
}

const PAYLOAD = JSON.stringify({ note: 'x'.repeat(200) });

function event(eventId, kind) {
  return {
    eventId,
    sourceEventId: null,
    instanceId: 'grows',
    executionId: 1,
    timestampMs: Date.now(),
    duroxideVersion: '0.1.32',
    kind,
  };
}

const metadata = { orchestrationName: 'Grows', orchestrationVersion: '1.0.0' };

async function turn(provider, item) {
  await provider.enqueueForOrchestrator(item, null);
  const started = performance.now();
  const fetched = await provider.fetchOrchestrationItem(30_000, 0, null);
  const elapsed = performance.now() - started;
  if (fetched === null || fetched.item.historyError !== null) throw new Error('fetch failed');
  const next = fetched.item.history.length + 1;
  const added =
    next === 1
      ? event(1, {
          type: 'OrchestrationStarted',
          name: 'Grows',
          version: '1.0.0',
          input: '{}',
          parentInstance: null,
          parentId: null,
        })
      : event(next, { type: 'ExternalEvent', name: 'tick', data: PAYLOAD });
  await provider.ackOrchestrationItem(fetched.lockToken, 1, [added], [], [], metadata, []);
  return elapsed;
}

const start = {
  type: 'StartOrchestration',
  instance: 'grows',
  orchestration: 'Grows',
  input: '{}',
  version: '1.0.0',
  parentInstance: null,
  parentId: null,
  executionId: 1,
};
for (let length = 0; length < EVENTS; length++) {
  for (const variant of variants) {
    const item =
      length === 0 ? start : { type: 'ExternalRaised', instance: 'grows', name: 'tick', data: '1' };
    const ms = await turn(variant.provider, item);
    const band = Math.floor(length / BAND);
    variant.bands[band] ??= { total: 0, count: 0 };
    variant.bands[band].total += ms;
    variant.bands[band].count += 1;
  }
}

const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query(
  `SELECT version() AS version, current_setting('synchronous_commit') AS commit_mode, ` +
    `current_setting('fsync') AS fsync`,
);
for (const variant of variants) {
  await client.query(`DROP SCHEMA "${variant.schema}" CASCADE`);
  await variant.provider.close();
}
await client.end();

console.log(`PostgreSQL: ${rows[0].version}`);
console.log(`synchronous_commit ${rows[0].commit_mode}, fsync ${rows[0].fsync}`);
console.log(
  `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node.js ${process.version}`,
);
console.log(`one instance, ${EVENTS} turns of one ~300-byte event; mean fetch ms per band:`);
console.log('| history events | cached | uncached |');
console.log('| --- | --- | --- |');
for (let band = 0; band < variants[0].bands.length; band++) {
  const cells = variants.map((v) => (v.bands[band].total / v.bands[band].count).toFixed(2));
  console.log(`| ${band * BAND}–${(band + 1) * BAND - 1} | ${cells.join(' | ')} |`);
}
