import { randomBytes } from 'node:crypto';
import { TEST_SCHEMA_PREFIX, dropSchema } from '@duro/test-postgres';
import { useTestSchema } from '@duro/test-postgres/vitest';
import pg from 'pg';
import { afterAll } from 'vitest';

/** The run's database, a pool on it, and fresh schema names that are dropped after the file. */
export interface ScratchSchemas {
  readonly databaseUrl: string;
  readonly pool: pg.Pool;
  /** A new, not yet existing schema name (`duro_test_<label>_<random>`), dropped after the file. */
  fresh(label: string): string;
}

/**
 * For test files that need several schemas: the file's own test schema is created (and kept when
 * a test fails) by `useTestSchema()`; the extra ones come from {@link ScratchSchemas.fresh}.
 */
export function useScratchSchemas(): ScratchSchemas {
  const testSchema = useTestSchema();
  const names: string[] = [];
  let pool: pg.Pool | undefined;
  afterAll(async () => {
    for (const name of names) await dropSchema(testSchema.databaseUrl, name);
    await pool?.end();
  });
  return {
    get databaseUrl() {
      return testSchema.databaseUrl;
    },
    get pool() {
      pool ??= new pg.Pool({ connectionString: testSchema.databaseUrl, max: 24 });
      return pool;
    },
    fresh(label: string) {
      const name = `${TEST_SCHEMA_PREFIX}${label}_${randomBytes(4).toString('hex')}`;
      names.push(name);
      return name;
    },
  };
}
