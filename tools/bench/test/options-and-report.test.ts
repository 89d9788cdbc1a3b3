import { describe, expect, it } from 'vitest';
import type { MemoryBreakdown } from '../src/memory.js';
import { capsText, parseBenchArgs, UsageError } from '../src/options.js';
import {
  guaranteeDifferences,
  guaranteesOf,
  settingsText,
  workerConfig,
} from '../src/runtime-config.js';
import { labelledRates, queryLabel } from '../src/query-counter.js';
import { renderChart } from '../src/chart.js';
import type { CellResult } from '../src/cell-result.js';
import { formatReport, type BenchReport } from '../src/report.js';
import { DebugAddonError, requireReleaseAddon } from '../src/native-addon.js';
import { median, summariseRounds } from '../src/rounds.js';
import { summarise } from '../src/samples.js';
import { sleepCeiling, workloadsNamed, type Workload } from '../src/workloads.js';

describe('parseBenchArgs', () => {
  it('reads workloads, caps, processes and counts', () => {
    const options = parseBenchArgs(
      [
        '--workloads',
        'fan-out-5,hello',
        '--caps',
        '1:1,4:8',
        '--processes',
        '1,2',
        '--instances',
        '50',
        '--runtimes',
        'duro',
      ],
      {},
    );
    if (options === 'help') throw new Error('expected options');
    expect(options.workloads.map((w) => w.name)).toEqual(['fan-out-5', 'hello']);
    expect(options.caps).toEqual([
      { orchestrations: 1, activities: 1 },
      { orchestrations: 4, activities: 8 },
    ]);
    expect(options.processes).toEqual([1, 2]);
    expect(options.instances).toBe(50);
    expect(options.runtimes).toEqual(['duro']);
    expect(options.rounds).toBe(1);
    expect(options.databaseUrl).toBeNull();
    expect(options.stages).toBe(false);
    const timed = parseBenchArgs(['--stages'], {});
    expect(timed !== 'help' && timed.stages).toBe(true);
  });

  it('skips the leading -- that pnpm hands on, and only that one', () => {
    const options = parseBenchArgs(['--', '--rounds', '3'], {});
    expect(options !== 'help' && options.rounds).toBe(3);
    expect(() => parseBenchArgs(['--rounds', '3', '--', '--stages'], {})).toThrow(UsageError);
  });

  it("runs the issue's seven workloads at equal caps 2:2, 8:16 and 4:100, Rust at a 10 ms poll", () => {
    const options = parseBenchArgs([], {});
    if (options === 'help') throw new Error('expected options');
    expect(options.workloads.map((w) => w.name)).toEqual([
      'hello',
      'fan-out-5',
      'fan-out-5-noop',
      'sequential-5',
      'timers-3',
      'can-chain-10',
      'fan-out-100',
    ]);
    expect(options.caps.map(capsText)).toEqual(['2:2', '8:16', '4:100']);
    expect(options.processes).toEqual([1]);
    expect(options.settings).toEqual({
      duroOrchestrationBatch: 8,
      duroWorkerBatch: null,
      duroPool: 10,
      rustPollMs: 10,
      rustPool: null,
    });
  });

  it('refuses a debug build of the Rust side unless --allow-debug-addon says so', () => {
    const defaults = parseBenchArgs([], {});
    const allowing = parseBenchArgs(['--allow-debug-addon'], {});
    expect(defaults !== 'help' && defaults.allowDebugAddon).toBe(false);
    expect(allowing !== 'help' && allowing.allowDebugAddon).toBe(true);
    const debug = { profile: 'debug', duroxide: '0.1.32' } as const;
    expect(() => requireReleaseAddon(debug, false)).toThrow(DebugAddonError);
    expect(() => requireReleaseAddon(debug, false)).toThrow(/--allow-debug-addon/);
    expect(() => requireReleaseAddon(debug, true)).not.toThrow();
    expect(() => requireReleaseAddon({ ...debug, profile: 'release' }, false)).not.toThrow();
    // A run without Rust cells does not load the addon.
    expect(() => requireReleaseAddon(null, false)).not.toThrow();
  });

  it('takes the server from DATABASE_URL unless --database-url names one', () => {
    const fromEnv = parseBenchArgs([], { DATABASE_URL: 'postgres://env/db' });
    const fromFlag = parseBenchArgs(['--database-url', 'postgres://flag/db'], {
      DATABASE_URL: 'postgres://env/db',
    });
    expect(fromEnv !== 'help' && fromEnv.databaseUrl).toBe('postgres://env/db');
    expect(fromFlag !== 'help' && fromFlag.databaseUrl).toBe('postgres://flag/db');
  });

  it('names the flag that is wrong', () => {
    expect(() => parseBenchArgs(['--caps', '2x2'], {})).toThrow(
      /--caps takes orchestrations:activities pairs/,
    );
    expect(() => parseBenchArgs(['--processes', '0'], {})).toThrow(
      /--processes must be an integer >= 1/,
    );
    expect(() => parseBenchArgs(['--rust-poll-ms', 'fast'], {})).toThrow(
      /--rust-poll-ms must be an integer >= 1/,
    );
    expect(() => parseBenchArgs(['--instances', '0'], {})).toThrow(
      /--instances must be an integer >= 1/,
    );
    expect(() => parseBenchArgs(['--workloads', 'nope'], {})).toThrow(/unknown workload "nope"/);
    expect(() => parseBenchArgs(['--idle-caps', '4'], {})).toThrow(
      /--idle-caps takes orchestrations:activities pairs/,
    );
    expect(() => parseBenchArgs(['--rounds', '0'], {})).toThrow(/--rounds must be an integer >= 1/);
    expect(() => parseBenchArgs(['--runtimes', 'go'], {})).toThrow(UsageError);
    expect(() => parseBenchArgs(['--frobnicate'], {})).toThrow(UsageError);
  });
});

const memoryOf = (peakRssMiB: number): MemoryBreakdown => ({
  rssMiB: peakRssMiB - 5,
  peakRssMiB,
  heapCommittedMiB: 20,
  youngGenerationMiB: 8,
  heapUsedMiB: 12,
  heapLiveMiB: 6.5,
  externalMiB: 1.25,
});

const figures = (orchestrationsPerSecond: number, p50Ms = 5): CellResult['figures'] => ({
  instances: 10,
  orchestrationsPerSecond,
  activitiesPerSecond: orchestrationsPerSecond * 5,
  p50Ms,
  p95Ms: 8,
  p99Ms: 9,
  maxMs: 11,
  commitsPerOrchestration: 12,
  runtimeCpuMsPerOrchestration: 1.5,
  clientCpuMsPerOrchestration: 0.5,
  serverCpuMsPerOrchestration: 2,
  totalCpuMsPerOrchestration: 4,
  serverShare: 0.5,
  machineCpuMsPerOrchestration: 4.25,
  stealShare: 0.02,
  loadAverage: [1.5, 2.25],
  peakRssMiB: 60,
  memory: memoryOf(60),
});

const caps = { orchestrations: 2, activities: 2 };

const fanOutCell = (
  runtime: CellResult['runtime'],
  round: number,
  orchPerSecond: number,
): CellResult => {
  const config = workerConfig(runtime, caps, {
    duroOrchestrationBatch: 8,
    duroWorkerBatch: null,
    duroPool: 10,
    rustPollMs: 10,
    rustPool: null,
  });
  return {
    workload: 'fan-out-5',
    caps,
    processes: 1,
    runtime,
    round,
    inFlight: 20,
    guarantees: guaranteesOf(config, 1),
    settings: settingsText(config),
    sleepCeiling: 40,
    figures: figures(orchPerSecond, round * 5),
  };
};

/** A duro and a Rust cell per round, from each round's pair of orch/s. */
const alternatingRounds = (rounds: readonly (readonly [number, number])[]): CellResult[] =>
  rounds.flatMap(([duro, rust], index) => [
    fanOutCell('duro', index + 1, duro),
    fanOutCell('rust', index + 1, rust),
  ]);

const reportOf = (cells: CellResult[]): BenchReport => ({
  date: '2026-01-01T00:00:00.000Z',
  command: 'duro-bench --workloads fan-out-5',
  commit: 'abc123',
  server: 'test',
  environment: {
    postgresVersion: 'PostgreSQL 18.0',
    settings: { synchronous_commit: 'on' },
    cpuCount: 2,
    cpuModel: 'cpu',
    memoryGiB: 24,
    node: 'v20',
    platform: 'Linux',
  },
  nativeAddon: { profile: 'release', duroxide: '0.1.32' },
  futureTimers: 0,
  pgbench: [{ clients: 1, tps: 1234.4 }],
  cells,
  medians: summariseRounds(cells),
  idle: [],
  soak: null,
});

describe('formatReport', () => {
  it('names the build of the Rust side, loudly when it is a debug build', () => {
    const cells = alternatingRounds([[150, 15]]);
    expect(formatReport(reportOf(cells))).toContain(
      '- @duro/native: release build, duroxide 0.1.32',
    );
    const debug = formatReport({
      ...reportOf(cells),
      nativeAddon: { profile: 'debug', duroxide: '0.1.32' },
    });
    expect(debug).toContain('- @duro/native: DEBUG build (--allow-debug-addon)');
  });

  it("prints a soak's memory and its throughput in the first and last interval", () => {
    const text = formatReport({
      ...reportOf(alternatingRounds([[150, 15]])),
      soak: {
        seconds: 30,
        orchestrations: 4_000,
        rssMiB: [110, 118, 112],
        heapAfterCollectionMiB: [13.6, 14.2, 13.4],
        orchestrationsPerSecond: [140.5, 120.25],
      },
    });
    expect(text).toContain('## Soak: fan-out-5 for 30 s, 4000 orchestrations');
    expect(text).toContain('- worker RSS: 110 MiB at the start, 112 MiB at the end (peak 118 MiB)');
    expect(text).toContain(
      '- throughput: 140.5 orch/s in the first interval, 120.3 in the last (120.3–140.5)',
    );
  });

  it('prints where the time of each timed cell went, leaving out the smallest steps', () => {
    const timed: CellResult = {
      ...fanOutCell('duro', 1, 150),
      stages: [
        {
          from: 'turn commit sent',
          to: 'turn committed',
          msPerInstance: 12.5,
          timesPerInstance: 2,
        },
        { from: 'turn fetched', to: 'start committed', msPerInstance: 0.04, timesPerInstance: 0.1 },
      ],
    };
    const text = formatReport(reportOf([timed, fanOutCell('rust', 1, 15)]));
    expect(text).toContain("## Where a duro instance's time goes");
    expect(text).toMatch(
      /^- fan-out-5 2:2 ×1 duro round 1: turn commit sent → turn committed 12\.5 \(×2\.0\)$/m,
    );
    expect(text).not.toContain('turn fetched → start committed');
  });

  it('prints each cell with what every process spent and the duro/Rust ratio', () => {
    const text = formatReport(reportOf(alternatingRounds([[36, 18]])));
    expect(text).toContain('- synchronous_commit: on');
    expect(text).toContain('- command: `duro-bench --workloads fan-out-5`');
    expect(text).toContain('| 1 | 1234 |');
    expect(text).toContain(
      '| fan-out-5 | 2:2 | 1 | duro | 1 | 20 | 36.0 | 40 | 90 % | 5.0 | 9.0 | 11.0 | 12.0 | 1.50 | 0.50 | 2.00 | 4.00 | 50 % | 4.25 | 60 | 1.5→2.3 | 2 % | 2.00× |',
    );
    expect(text).toMatch(/^\| fan-out-5 \| 2:2 \| 1 \| rust \| 1 \| .* \| 2 % \| {2}\|$/m);
    expect(text).toContain(
      '- duro 2:2 ×1: 2 activities at once, 2 orchestration slots, acks durable, claims durable; orchestrationBatchSize 8, workerBatchSize 2',
    );
    expect(text).toContain(
      '- rust 2:2 ×1: 2 activities at once, 2 orchestration slots, acks durable, claims durable; dispatcher poll 10 ms, pool 10',
    );
    expect(text).not.toContain('Medians over rounds');
    expect(text).not.toContain('UNEQUAL');
    expect(text).toContain(
      '| fan-out-5 | 2:2 | 1 | duro | 1 | 60 | 55 | 20.0 | 8.0 | 12.0 | 6.5 | 1.3 |',
    );
  });

  it('gives no ratio to a cell that promises less than Rust, and says so loudly', () => {
    const text = formatReport(
      reportOf([fanOutCell('duro-non-durable-claims', 1, 80), fanOutCell('rust', 1, 20)]),
    );
    expect(text).toMatch(
      /^\| fan-out-5 \| 2:2 \| 1 \| duro-non-durable-claims .* \| \*\*UNEQUAL\*\* \|$/m,
    );
    expect(text).toContain('## UNEQUAL CELLS: not comparable with Rust');
    expect(text).toContain(
      '- fan-out-5 2:2 ×1 duro-non-durable-claims round 1: claims not durable vs durable',
    );
    expect(text).toContain('claims **NOT durable**');
    expect(text).not.toContain('4.00×');
  });

  it('pairs each duro cell with the Rust cell of its round and prints the medians', () => {
    const text = formatReport(
      reportOf(
        alternatingRounds([
          [150, 10],
          [200, 25],
          [180, 20],
        ]),
      ),
    );
    expect(text).toContain('| fan-out-5 | 2:2 | 1 | duro | 2 | 20 | 200.0 |');
    expect(text).toContain('| 8.00× |');
    expect(text).toContain('## Medians over rounds');
    expect(text).toContain(
      '| fan-out-5 | 2:2 | 1 | duro | 3 | 180.0 | 150.0–200.0 | 450 % | 10.0 | 9.0 | 4.00 | 60 | 9.00× | 1.00× |',
    );
    expect(text).toContain(
      '| fan-out-5 | 2:2 | 1 | rust | 3 | 20.0 | 10.0–25.0 | 50 % | 10.0 | 9.0 | 4.00 | 60 |  |  |',
    );
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('renderChart', () => {
  it('draws one bar per runtime at its median, titled with the median ratio', () => {
    const svg = renderChart(
      reportOf(
        alternatingRounds([
          [150, 10],
          [200, 25],
        ]),
      ),
    );
    expect(svg.match(/<rect x=/g)).toHaveLength(2);
    expect(svg).toContain('fan-out-5 2:2 ×1 (duro/Rust 11.50×)');
    expect(svg).toContain('175.0/s');
  });
});

describe('queryLabel', () => {
  it('names a query by the procedure it calls, else the table it reads, else its verb', () => {
    expect(
      queryLabel({
        name: 'duro_fetch_orch_x',
        text: 'SELECT * FROM "x".fetch_orchestration_item($1)',
      }),
    ).toBe('fetch_orchestration_item');
    expect(queryLabel('SELECT (SELECT 1 FROM "x".worker_queue q) AS next_ms')).toBe(
      'read worker_queue',
    );
    expect(queryLabel('LISTEN duro_orch_x')).toBe('LISTEN');
  });

  it('divides the counts added between two readings', () => {
    const rates = labelledRates(
      new Map([['a', 2]]),
      new Map([
        ['a', 12],
        ['b', 30],
        ['c', 4],
      ]),
      10,
    );
    expect(rates).toEqual({ b: 3, a: 1, c: 0.4 });
  });
});

describe('summarise', () => {
  it('measures throughput from the first measured start to the last completion', () => {
    const figures = summarise(
      {
        timings: [
          { startedMs: 0, finishedMs: 50 },
          { startedMs: 100, finishedMs: 110 },
          { startedMs: 110, finishedMs: 300 },
        ],
        activityAcks: 15,
        commits: 30,
        rollbacks: 0,
        machine: { wallMs: 400, busyMs: 600, stealShare: 0.1, loadAverage: [1, 2] },
        runtimeCpuMs: 60,
        clientCpuMs: 15,
        serverCpuMs: 75,
        memory: memoryOf(70),
      },
      1,
    );
    expect(figures.instances).toBe(2);
    expect(figures.orchestrationsPerSecond).toBe(10);
    expect(figures.activitiesPerSecond).toBe(50);
    expect(figures.p50Ms).toBe(10);
    expect(figures.p99Ms).toBe(190);
    expect(figures.commitsPerOrchestration).toBe(10);
    expect(figures.runtimeCpuMsPerOrchestration).toBe(20);
    expect(figures.clientCpuMsPerOrchestration).toBe(5);
    expect(figures.serverCpuMsPerOrchestration).toBe(25);
    expect(figures.totalCpuMsPerOrchestration).toBe(50);
    expect(figures.serverShare).toBe(0.5);
    expect(figures.machineCpuMsPerOrchestration).toBe(200);
    expect(figures.stealShare).toBe(0.1);
    expect(figures.peakRssMiB).toBe(70);
  });

  it('reports the slowest instance, which a pause of one in a hundred hides from p99', () => {
    const timings = Array.from({ length: 200 }, (_, index) => ({
      startedMs: index,
      finishedMs: index + (index === 150 ? 5_000 : 10),
    }));
    const figures = summarise(
      {
        timings,
        activityAcks: 0,
        commits: 0,
        rollbacks: 0,
        machine: { wallMs: 1, busyMs: 0, stealShare: 0, loadAverage: [0, 0] },
        runtimeCpuMs: 0,
        clientCpuMs: 0,
        serverCpuMs: 0,
        memory: memoryOf(0),
      },
      0,
    );
    expect(figures.p99Ms).toBe(10);
    expect(figures.maxMs).toBe(5_000);
  });
});

describe('sleepCeiling', () => {
  const [fanOut, noop, timers, sequence] = workloadsNamed([
    'fan-out-5',
    'fan-out-5-noop',
    'timers-3',
    'sequential-5',
  ]) as [Workload, Workload, Workload, Workload];

  it('bounds a fan-out by the activities that may sleep at once', () => {
    expect(sleepCeiling(fanOut, 2, 20)).toBe(40);
    expect(sleepCeiling(fanOut, 16, 20)).toBe(320);
  });

  it('bounds a cell by its instances in flight waiting out their sleeps one after another', () => {
    expect(sleepCeiling(fanOut, 1000, 20)).toBe(2000);
    expect(sleepCeiling(sequence, 100, 20)).toBe(400);
    expect(sleepCeiling(timers, 2, 20)).toBeCloseTo(666.7, 1);
  });

  it('sets no ceiling for a workload that does not sleep', () => {
    expect(sleepCeiling(noop, 2, 20)).toBeNull();
  });
});

describe('guarantees', () => {
  const settings = {
    duroOrchestrationBatch: 8,
    duroWorkerBatch: 64,
    duroPool: 10,
    rustPollMs: 10,
    rustPool: null,
  };

  it('gives duro and Rust the same caps, and duro a fetch no larger than its cap', () => {
    const caps = { orchestrations: 4, activities: 16 };
    const duro = workerConfig('duro', caps, settings);
    const rust = workerConfig('rust', caps, settings);
    expect(guaranteeDifferences(guaranteesOf(duro, 2), guaranteesOf(rust, 2))).toEqual([]);
    expect(guaranteesOf(duro, 2)).toEqual({
      activitiesAtOnce: 32,
      orchestrationSlots: 8,
      durableAcks: true,
      durableClaims: true,
    });
    expect(duro.kind === 'duro' && duro.runtimeOptions.workerBatchSize).toBe(16);
    expect(rust.kind === 'rust' && rust.poolMaxConnections).toBe(22);
  });

  it('tells apart a runtime whose claims are not durable', () => {
    const caps = { orchestrations: 2, activities: 2 };
    const weak = guaranteesOf(workerConfig('duro-non-durable-claims', caps, settings), 1);
    const rust = guaranteesOf(workerConfig('rust', caps, settings), 1);
    expect(guaranteeDifferences(weak, rust)).toEqual(['claims not durable vs durable']);
    expect(guaranteeDifferences({ ...rust, activitiesAtOnce: 80 }, rust)).toEqual([
      'activities at once 80 vs 2',
    ]);
  });
});
