import { describeRuntimeScenarios } from '@duro/core/validation';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

// The runtime end to end on PostgreSQL, batched activity fetch and ack included (the runtime's
// default when the provider has them).
const database = useTestDatabase();

describeRuntimeScenarios({
  createProvider: () => database.newProvider({}, 'runtime'),
  destroyProvider: (provider) => database.dropProvider(provider as PostgresProvider),
});
