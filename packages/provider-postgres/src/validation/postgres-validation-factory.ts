import type { Provider } from '@duro/core';
import type { ProviderFactory } from '@duro/core/validation';
import pg from 'pg';
import { PostgresProvider } from '../postgres-provider.js';
import type { PostgresProviderOptions } from '../postgres-provider-options.js';

/** Where and how {@link postgresValidationFactory} makes its providers. */
export interface PostgresValidationFactoryOptions {
  /** The database that holds every schema the factory creates. */
  readonly url: string;
  /** A new, unused schema name for each provider (e.g. one a test sweep recognises). */
  newSchemaName(): string;
  /** Lock timeout the validations use, ms. Default 5000, duroxide's. */
  readonly lockTimeoutMs?: number;
  /** Options for every provider made. Default: a pool of 4 connections. */
  readonly providerOptions?: PostgresProviderOptions;
}

/** A validation factory for `PostgresProvider` that owns a pool for its hooks' own SQL. */
export interface PostgresValidationFactory extends ProviderFactory {
  /** Destroys every provider still alive and closes the factory's pool. */
  close(): Promise<void>;
}

function asPostgres(provider: Provider): PostgresProvider {
  if (!(provider instanceof PostgresProvider)) {
    throw new TypeError(`expected a PostgresProvider, got ${provider.name}`);
  }
  return provider;
}

/**
 * A `ProviderFactory` (from `@duro/core/validation`) whose providers are `PostgresProvider`s,
 * each on a schema of its own migrated from scratch and dropped when it is destroyed. Both the
 * TypeScript validation suite and duroxide's Rust suite (through `@duro/native`) run on it.
 *
 * @example
 * ```ts
 * import { describeProviderValidations } from '@duro/core/validation';
 * import { postgresValidationFactory } from '@duro/provider-postgres/validation';
 *
 * const factory = postgresValidationFactory({
 *   url: process.env.DATABASE_URL!,
 *   newSchemaName: () => `validation_${Math.random().toString(16).slice(2, 10)}`,
 * });
 * describeProviderValidations(factory);
 * afterAll(() => factory.close());
 * ```
 */
export function postgresValidationFactory(
  options: PostgresValidationFactoryOptions,
): PostgresValidationFactory {
  const pool = new pg.Pool({ connectionString: options.url, max: 2 });
  const live = new Set<PostgresProvider>();
  const query = async <Row extends pg.QueryResultRow>(text: string, values: unknown[]) =>
    (await pool.query<Row>(text, values)).rows;

  const destroyProvider = async (provider: Provider): Promise<void> => {
    const postgres = asPostgres(provider);
    live.delete(postgres);
    await postgres.close();
    await query(`DROP SCHEMA IF EXISTS "${postgres.schema}" CASCADE`, []);
  };

  return {
    name: 'PostgresProvider',
    async createProvider() {
      const provider = await PostgresProvider.connectWithSchema(
        options.url,
        options.newSchemaName(),
        { poolSize: 4, ...options.providerOptions },
      );
      live.add(provider);
      return provider;
    },
    destroyProvider,
    lockTimeoutMs: options.lockTimeoutMs ?? 5_000,
    // duroxide-pg's factory allows 500 ms; a local server answers an empty fetch in a few ms.
    shortPollThresholdMs: 500,
    capabilities: {
      longPolling: true,
      batchedWorkerQueue: true,
      batchedOrchestrationQueue: true,
      activityClaims: true,
    },
    async corruptInstanceHistory(provider, instance) {
      // Valid JSON (the fetch procedure casts each row to jsonb) that is not a duroxide event.
      await query(
        `UPDATE "${asPostgres(provider).schema}".history SET event_data = $2 WHERE instance_id = $1`,
        [instance, '{"type":"NotADuroxideEvent","corrupted":true}'],
      );
    },
    async getMaxAttemptCount(provider, instance) {
      const rows = await query<{ max: number | null }>(
        `SELECT max(attempt_count) AS max FROM "${asPostgres(provider).schema}".orchestrator_queue ` +
          'WHERE instance_id = $1',
        [instance],
      );
      return rows[0]?.max ?? 0;
    },
    async close() {
      for (const provider of [...live]) await destroyProvider(provider);
      await pool.end();
    },
  };
}
