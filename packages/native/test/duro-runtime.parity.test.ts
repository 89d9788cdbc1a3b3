import { InMemoryProvider, decodeEvent, encodeEvent } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';
import { dropSchema, testSchemaName } from '@duro/test-postgres';
import { useTestSchema } from '@duro/test-postgres/vitest';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioOutcome } from '../ts/index.js';
import { runDuroScenarios } from './duro-scenario-harness.js';
import { normaliseEnd, normaliseHistories } from './history-shape.js';
import { loadDuroNative } from './native-addon.js';
import { expectCatalogueOutcome, scenarioCatalogue } from './scenario-catalogue.js';

const native = await loadDuroNative();
// On PostgreSQL the Rust runtime runs on duroxide-pg in the file's schema and the duro runtime
// on PostgresProvider in a second one, so neither runtime sees the other's queues.
const rustSchema = useTestSchema();
const duroSchema = testSchemaName('duro-runtime-duro');
interface Runs {
  rust: ScenarioOutcome[];
  duro: ScenarioOutcome[];
  // Instance prefixes, one per run: both sides key scenario state (attempt counters) by instance.
  rustPrefix: string;
  duroPrefix: string;
}
const onPostgres = { rustPrefix: 'rust-pg-', duroPrefix: 'duro-pg-' } as Runs;
const onInMemory = { rustPrefix: 'rust-memory-', duroPrefix: 'duro-memory-' } as Runs;
let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: rustSchema.databaseUrl, max: 2 });
  onPostgres.rust = await native.runRustScenariosOnPostgres(
    rustSchema.databaseUrl,
    rustSchema.name,
    { instancePrefix: onPostgres.rustPrefix, names: null, timeoutMs: null },
  );
  const provider = await PostgresProvider.connectWithSchema(rustSchema.databaseUrl, duroSchema, {
    poolSize: 8,
  });
  try {
    onPostgres.duro = await runDuroScenarios(provider, scenarioCatalogue, onPostgres.duroPrefix);
  } finally {
    await provider.close();
  }
  onInMemory.rust = await native.runRustScenariosOnProvider(
    native.toWireProvider(new InMemoryProvider()),
    { instancePrefix: onInMemory.rustPrefix, names: null, timeoutMs: null },
  );
  onInMemory.duro = await runDuroScenarios(
    new InMemoryProvider(),
    scenarioCatalogue,
    onInMemory.duroPrefix,
  );
}, 180_000);
afterAll(async () => {
  await pool.end();
  await dropSchema(rustSchema.databaseUrl, duroSchema);
});

for (const [store, runs] of [
  ['duro on PostgresProvider, duroxide on duroxide-pg', onPostgres],
  ['both on InMemoryProvider', onInMemory],
] as const) {
  describe(`the duro runtime against the Rust runtime on the scenario catalogue: ${store}`, () => {
    for (const [index, spec] of scenarioCatalogue.entries()) {
      it(`${spec.name}: duro ends as the catalogue says`, () => {
        expectCatalogueOutcome(spec, runs.duro[index]!);
      });
      it(`${spec.name}: duro ends with duroxide's status, output and error`, () => {
        expect(normaliseEnd(runs.duro[index]!, runs.duroPrefix)).toEqual(
          normaliseEnd(runs.rust[index]!, runs.rustPrefix),
        );
      });
      it(`${spec.name}: duro writes the history duroxide writes`, () => {
        expect(normaliseHistories(runs.duro[index]!, runs.duroPrefix)).toEqual(
          normaliseHistories(runs.rust[index]!, runs.rustPrefix),
        );
      });
    }
  });
}

/** Every history row a schema holds, as stored. */
async function storedEvents(schema: string): Promise<string[]> {
  const rows = await pool.query<{ event_data: string }>(
    `SELECT event_data FROM "${schema}".history ORDER BY instance_id, execution_id, event_id`,
  );
  return rows.rows.map((row) => row.event_data);
}

describe('history rows each runtime stored in PostgreSQL, read back by the other side', () => {
  it("every row duroxide-pg stored decodes with duro's types and re-encodes byte-identical", async () => {
    const rows = await storedEvents(rustSchema.name);
    expect(rows.length).toBeGreaterThan(100);
    for (const json of rows) expect(encodeEvent(decodeEvent(json))).toBe(json);
  });

  it("every row PostgresProvider stored decodes with duroxide's types and re-encodes byte-identical", async () => {
    const rows = await storedEvents(duroSchema);
    expect(rows.length).toBeGreaterThan(100);
    for (const json of rows) expect(native.roundTripEvent(json)).toEqual({ json, error: null });
  });
});
