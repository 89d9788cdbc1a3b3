import assert from 'node:assert/strict';
import { PostgresProvider } from '@duro/provider-postgres';

const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'orders', {
  poolSize: 20, // connections in the pool; the listening connection is one more (default 10)
  applicationName: 'orders-worker', // shown in pg_stat_activity (default 'duro')
  statementTimeoutMs: 60_000, // cancel statements that run longer (default 0: no limit)
  historyCacheSize: 2_000, // instances whose history stays in memory between turns (default 256)
  queueVacuumIntervalMs: 30_000, // vacuum the queue tables this often while busy (default 10 000)
  nonDurableClaims: false, // true trades claim durability for one disk flush less (default false)
});

const depths = await provider.getQueueDepths();
console.log(depths); // { orchestratorQueue: 0, workerQueue: 0, timerQueue: 0 }

await provider.close();
assert.equal(depths.orchestratorQueue, 0);
