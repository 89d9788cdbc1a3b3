import { DUROXIDE_MIGRATION_VERSIONS, runMigrations } from '@duro/provider-postgres';
import { useTestSchema } from '@duro/test-postgres/vitest';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDuroNative } from './native-addon.js';

const native = await loadDuroNative();
const schema = useTestSchema();
let pool: pg.Pool;

beforeAll(() => {
  pool = new pg.Pool({ connectionString: schema.databaseUrl, max: 2 });
});
afterAll(async () => {
  await pool.end();
});

describe('a schema migrated by the Rust duroxide-pg runner', () => {
  it("is taken by duro's runner as up to date on duroxide's track, which only adds duro's own", async () => {
    await native.migrateWithDuroxidePg(schema.databaseUrl, schema.name);

    const duroxideOnly = await runMigrations(pool, { schema: schema.name, extensions: false });
    expect(duroxideOnly.applied).toEqual([]);
    expect(duroxideOnly.duroxideVersion).toBe(DUROXIDE_MIGRATION_VERSIONS.at(-1));

    const withExtensions = await runMigrations(pool, { schema: schema.name });
    expect(withExtensions.applied.map((file) => file.track)).not.toContain('duroxide');

    // duroxide-pg still accepts the schema once duro's extension track is on it.
    await native.migrateWithDuroxidePg(schema.databaseUrl, schema.name);
  });
});
