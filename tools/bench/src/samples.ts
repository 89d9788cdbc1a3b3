import { percentile } from '@duro/bench-provider';
import type { CpuSpent } from './cpu-meter.js';
import type { StageStep } from './stage-times.js';

/** When one instance was started and when its completion committed, ms on one clock. */
export interface InstanceTiming {
  readonly startedMs: number;
  readonly finishedMs: number;
}

/** What one runtime did in one cell, before it is summarised. */
export interface CellSamples {
  /** Every instance in start order, warm-up ones first. */
  readonly timings: readonly InstanceTiming[];
  /** Activities acknowledged over the whole cell, warm-up included. */
  readonly activityAcks: number;
  /** Transactions the server committed (and rolled back) over the whole cell. */
  readonly commits: number;
  readonly rollbacks: number;
  /** CPU time over the whole cell (warm-up included), from the runtime's start to its stop. */
  readonly cpu: CpuSpent;
  /** Statements sent per orchestration, by what they do (warm-up included); duro only. */
  readonly statementsPerOrchestration?: Readonly<Record<string, number>>;
  /** Where the measured instances' time went (`--stages`); duro only. */
  readonly stages?: readonly StageStep[];
}

/** The figures of one cell. */
export interface CellFigures {
  readonly instances: number;
  readonly orchestrationsPerSecond: number;
  readonly activitiesPerSecond: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  /** The slowest measured instance: a pause of a few instances shows here, not in p99. */
  readonly maxMs: number;
  /** Server commits per orchestration over the whole cell (warm-up included). */
  readonly commitsPerOrchestration: number;
  /** CPU time of the bench process (the runtime) per orchestration, ms (warm-up included). */
  readonly processCpuMsPerOrchestration: number;
  /** Busy time of the whole machine (runtime and server) per orchestration, ms. */
  readonly machineCpuMsPerOrchestration: number;
  /** Cores the machine kept busy on average over the cell: near the core count, it is CPU-bound. */
  readonly machineBusyCores: number;
}

/**
 * Summarises a cell: throughput over the measured instances (from the first start to the last
 * completion), their start-to-completion percentiles, and per-orchestration rates over all.
 */
export function summarise(samples: CellSamples, warmup: number): CellFigures {
  const measured = samples.timings.slice(warmup);
  if (measured.length === 0) throw new RangeError('a cell needs at least one measured instance');
  const first = Math.min(...measured.map((t) => t.startedMs));
  const last = Math.max(...measured.map((t) => t.finishedMs));
  const orchestrationsPerSecond = (measured.length / (last - first)) * 1000;
  const latencies = measured.map((t) => t.finishedMs - t.startedMs).sort((a, b) => a - b);
  const all = samples.timings.length;
  return {
    instances: measured.length,
    orchestrationsPerSecond,
    activitiesPerSecond: (samples.activityAcks / all) * orchestrationsPerSecond,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? 0,
    commitsPerOrchestration: samples.commits / all,
    processCpuMsPerOrchestration: samples.cpu.processMs / all,
    machineCpuMsPerOrchestration: samples.cpu.machineMs / all,
    machineBusyCores: samples.cpu.machineMs / samples.cpu.wallMs,
  };
}
