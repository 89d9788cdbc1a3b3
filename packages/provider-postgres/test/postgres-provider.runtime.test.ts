import type { Provider } from '@duro/core';
import { describeRuntimeScenarios } from '@duro/core/validation';
import { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();

function asPostgres(provider: Provider): PostgresProvider {
  if (!(provider instanceof PostgresProvider)) {
    throw new TypeError(`expected a PostgresProvider, got ${provider.name}`);
  }
  return provider;
}

describeRuntimeScenarios({
  // Each scenario gets a schema of its own, migrated from scratch.
  createProvider: () => database.newProvider({}, 'runtime'),
  destroyProvider: (provider) => database.dropProvider(asPostgres(provider)),
});
