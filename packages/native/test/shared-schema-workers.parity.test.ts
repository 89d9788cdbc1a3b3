import { PostgresProvider } from '@duro/provider-postgres';
import { useTestSchema } from '@duro/test-postgres/vitest';
import { afterAll, beforeAll } from 'vitest';
import { loadDuroNative } from './native-addon.js';
import { describeSharedStoreWorkers } from './shared-store-workers.js';

const native = await loadDuroNative();
const schema = useTestSchema();

let provider: PostgresProvider;
beforeAll(async () => {
  // duro migrates the schema; duroxide-pg then serves it as it is.
  provider = await PostgresProvider.connectWithSchema(schema.databaseUrl, schema.name, {
    poolSize: 8,
  });
});
afterAll(async () => {
  await provider.close();
});

describeSharedStoreWorkers('one PostgreSQL schema served by a Rust and a duro worker', () => ({
  provider,
  async startRustWorker() {
    const worker = await native.startRustWorkerOnPostgres(schema.databaseUrl, schema.name);
    return { stop: () => worker.stop(), activityInputs: async () => worker.activityInputs() };
  },
}));
