import { runMigrations } from '@duro/provider-postgres';
import { useTestSchema } from '@duro/test-postgres/vitest';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDuroNative } from './native-addon.js';
import { expectCatalogueOutcome, scenarioCatalogue } from './scenario-catalogue.js';

const native = await loadDuroNative();
const schema = useTestSchema();
let pool: pg.Pool;

beforeAll(() => {
  pool = new pg.Pool({ connectionString: schema.databaseUrl, max: 2 });
});
afterAll(async () => {
  await pool.end();
});

async function duroxideLedger(): Promise<number[]> {
  const rows = await pool.query<{ version: string }>(
    `SELECT version FROM ${schema.name}._duroxide_migrations ORDER BY version`,
  );
  return rows.rows.map((row) => Number(row.version));
}

describe('a schema migrated by duro', () => {
  it('is served by the Rust duroxide-pg provider, which finds nothing left to apply', async () => {
    const report = await runMigrations(pool, { schema: schema.name });
    expect(report.applied.length).toBeGreaterThan(0);
    const ledger = await duroxideLedger();

    const outcomes = await native.runRustScenariosOnPostgres(schema.databaseUrl, schema.name, {
      instancePrefix: 'duro-migrated-',
      names: null,
      timeoutMs: null,
    });

    scenarioCatalogue.forEach((spec, index) => expectCatalogueOutcome(spec, outcomes[index]!));
    expect(await duroxideLedger()).toEqual(ledger);
  }, 120_000);
});
