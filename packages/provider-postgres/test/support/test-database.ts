import { randomBytes } from 'node:crypto';
import { TEST_SCHEMA_PREFIX } from '@duro/test-postgres';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import '@duro/test-postgres/vitest';
import { PostgresProvider, type PostgresProviderOptions } from '../../src/index.js';

/** The run's database, with a small pool for the SQL the tests run beside the provider. */
export interface TestDatabase {
  readonly url: string;
  /** Runs SQL as a separate session (not through any provider). */
  query<Row extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<Row[]>;
  /** A new schema name that the sweep command recognizes. */
  newSchemaName(label: string): string;
  /** A provider on a new, migrated schema; closed and dropped when the file ends. */
  newProvider(options?: PostgresProviderOptions, label?: string): Promise<PostgresProvider>;
  /** Another provider on the schema of `provider` (not migrating it); closed when the file ends. */
  attach(provider: PostgresProvider, options?: PostgresProviderOptions): Promise<PostgresProvider>;
  /** Closes a provider from {@link newProvider} and drops its schema now. */
  dropProvider(provider: PostgresProvider): Promise<void>;
}

/**
 * The database of this test run (from `@duro/test-postgres/global-setup`). Providers made with
 * `newProvider` are closed and their schemas dropped after the file's last test.
 */
export function useTestDatabase(): TestDatabase {
  const url = inject('duroDatabaseUrl');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const providers = new Set<PostgresProvider>();
  const attached = new Set<PostgresProvider>();

  const query = async <Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await pool.query<Row>(text, values)).rows;

  const dropProvider = async (provider: PostgresProvider): Promise<void> => {
    providers.delete(provider);
    await provider.close();
    await query(`DROP SCHEMA IF EXISTS "${provider.schema}" CASCADE`);
  };

  afterAll(async () => {
    for (const provider of attached) await provider.close();
    for (const provider of [...providers]) await dropProvider(provider);
    await pool.end();
  });

  const newSchemaName = (label: string): string =>
    `${TEST_SCHEMA_PREFIX}${label}_${randomBytes(4).toString('hex')}`;

  return {
    url,
    query,
    newSchemaName,
    async newProvider(options = {}, label = 'provider') {
      const provider = await PostgresProvider.connectWithSchema(url, newSchemaName(label), {
        poolSize: 4,
        ...options,
      });
      providers.add(provider);
      return provider;
    },
    async attach(provider, options = {}) {
      const other = await PostgresProvider.connectWithSchema(url, provider.schema, {
        poolSize: 4,
        migrate: false,
        ...options,
      });
      attached.add(other);
      return other;
    },
    dropProvider,
  };
}
