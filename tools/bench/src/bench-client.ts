import { Client } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';
import type { RuntimeName } from './options.js';
import type { StageTimes } from './stage-times.js';
import type { Workload } from './workloads.js';

/** Connections of the client's pool, on both sides. */
const CLIENT_POOL = 10;

/** What the bench process does to a cell's schema: start instances, as the runtime's own client. */
export interface BenchClient {
  /** Starts `instance` of the workload (and does what the workload does right after). */
  start(instance: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The client of the runtime under test: duro's `Client` on `PostgresProvider` for duro's
 * runtimes, duroxide's `Client` on duroxide-pg for Rust, each with a pool of ten.
 */
export async function connectBenchClient(
  runtime: RuntimeName,
  url: string,
  schema: string,
  workload: Workload,
  stages: StageTimes | null,
): Promise<BenchClient> {
  if (runtime === 'rust') {
    const { connectRustBenchClient } = await import('@duro/native');
    const client = await connectRustBenchClient(url, schema, workload.name, CLIENT_POOL);
    return { start: (instance) => client.start(instance), close: () => client.close() };
  }
  const provider = await PostgresProvider.connectWithSchema(url, schema, {
    migrate: false,
    poolSize: CLIENT_POOL,
  });
  const client = new Client(stages?.watch(provider) ?? provider);
  return {
    async start(instance) {
      await client.startOrchestration(instance, workload.orchestration, workload.input);
      await workload.afterStart?.(client, instance);
    },
    close: () => provider.close(),
  };
}
