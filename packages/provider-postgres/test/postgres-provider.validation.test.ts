import { describeProviderValidations } from '@duro/core/validation';
import type { Provider } from '@duro/core';
import { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();

function asPostgres(provider: Provider): PostgresProvider {
  if (!(provider instanceof PostgresProvider)) {
    throw new TypeError(`expected a PostgresProvider, got ${provider.name}`);
  }
  return provider;
}

describeProviderValidations({
  name: 'PostgresProvider',
  // Each validation gets a schema of its own, migrated from scratch.
  createProvider: () => database.newProvider({}, 'validation'),
  destroyProvider: (provider) => database.dropProvider(asPostgres(provider)),
  lockTimeoutMs: 5_000,
  // duroxide-pg's factory allows 500 ms; a local server answers an empty fetch in a few ms.
  shortPollThresholdMs: 500,
  supportsLongPolling: true,
  corruptInstanceHistory: async (provider, instance) => {
    // Valid JSON (the fetch procedure casts each row to jsonb) that is not a duroxide event.
    await database.query(
      `UPDATE "${asPostgres(provider).schema}".history SET event_data = $2 WHERE instance_id = $1`,
      [instance, '{"type":"NotADuroxideEvent","corrupted":true}'],
    );
  },
  getMaxAttemptCount: async (provider, instance) => {
    const rows = await database.query<{ max: number | null }>(
      `SELECT max(attempt_count) AS max FROM "${asPostgres(provider).schema}".orchestrator_queue ` +
        'WHERE instance_id = $1',
      [instance],
    );
    return rows[0]?.max ?? 0;
  },
});
