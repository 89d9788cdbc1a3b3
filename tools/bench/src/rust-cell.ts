import { migrateWithDuroxidePg, runRustBenchmark } from '@duro/native';
import type { CellPlan } from './cell-plan.js';
import { startCpuMeter } from './cpu-meter.js';
import type { BenchDatabase } from './database.js';
import type { CellSamples } from './samples.js';

/** How long one instance may run before the cell fails, ms. */
const INSTANCE_TIMEOUT_MS = 120_000;

/** Runs one cell on the Rust duroxide runtime with duroxide-pg, through `@duro/native`. */
export async function runRustCell(
  url: string,
  db: BenchDatabase,
  plan: CellPlan,
): Promise<CellSamples> {
  await db.dropSchema(plan.schema);
  await migrateWithDuroxidePg(url, plan.schema);
  await db.queueFutureTimers(plan.schema, plan.futureTimers);
  const before = await db.transactionCounts();
  const cpuSpent = startCpuMeter();
  const result = await runRustBenchmark(url, plan.schema, {
    workload: plan.workload.name,
    orchestrationConcurrency: plan.slots.orchestration,
    workerConcurrency: plan.slots.worker,
    instances: plan.warmup + plan.instances,
    inFlight: plan.inFlight,
    instancePrefix: `${plan.workload.name}-`,
    instanceTimeoutMs: INSTANCE_TIMEOUT_MS,
  });
  const cpu = cpuSpent();
  const after = await db.transactionCounts();
  await db.dropSchema(plan.schema);
  return {
    timings: result.timings.map((t) => ({ startedMs: t.startedMs, finishedMs: t.finishedMs })),
    activityAcks: result.activityAcks,
    commits: after.commits - before.commits,
    rollbacks: after.rollbacks - before.rollbacks,
    cpu,
  };
}
