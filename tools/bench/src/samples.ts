import { percentile } from '@duro/bench-provider';
import type { MachineSpent } from './cpu-meter.js';
import type { MemoryBreakdown } from './memory.js';
import type { StageStep } from './stage-times.js';

/** When one instance was started and when its completion committed, epoch ms. */
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
  /** The machine while every instance ran (warm-up included). */
  readonly machine: MachineSpent;
  /** CPU of the runtime processes, of this process (the client) and of the server, ms. */
  readonly runtimeCpuMs: number;
  readonly clientCpuMs: number;
  /** NaN when the server is not on this machine. */
  readonly serverCpuMs: number;
  /** The memory of the runtime process whose peak RSS was the largest. */
  readonly memory: MemoryBreakdown;
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
  /** CPU per orchestration of the runtime processes, the client and the server, ms. */
  readonly runtimeCpuMsPerOrchestration: number;
  readonly clientCpuMsPerOrchestration: number;
  readonly serverCpuMsPerOrchestration: number;
  /** The three together. */
  readonly totalCpuMsPerOrchestration: number;
  /** The server's part of the three. */
  readonly serverShare: number;
  /** Busy time of the whole machine per orchestration, ms: the three and anything else running. */
  readonly machineCpuMsPerOrchestration: number;
  /** Core time the machine lost to steal while the cell ran, as a share. */
  readonly stealShare: number;
  /** The one-minute load average at the cell's start and end. */
  readonly loadAverage: readonly [number, number];
  /** The largest peak RSS of the cell's runtime processes, MiB. */
  readonly peakRssMiB: number;
  /** Where that process's memory was at the end. */
  readonly memory: MemoryBreakdown;
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
  const totalCpuMs = samples.runtimeCpuMs + samples.clientCpuMs + samples.serverCpuMs;
  return {
    instances: measured.length,
    orchestrationsPerSecond,
    activitiesPerSecond: (samples.activityAcks / all) * orchestrationsPerSecond,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? 0,
    commitsPerOrchestration: samples.commits / all,
    runtimeCpuMsPerOrchestration: samples.runtimeCpuMs / all,
    clientCpuMsPerOrchestration: samples.clientCpuMs / all,
    serverCpuMsPerOrchestration: samples.serverCpuMs / all,
    totalCpuMsPerOrchestration: totalCpuMs / all,
    serverShare: samples.serverCpuMs / totalCpuMs,
    machineCpuMsPerOrchestration: samples.machine.busyMs / all,
    stealShare: samples.machine.stealShare,
    loadAverage: samples.machine.loadAverage,
    peakRssMiB: samples.memory.peakRssMiB,
    memory: samples.memory,
  };
}
