import { describe, expect, it } from 'vitest';
import { parseBenchArgs, UsageError } from '../src/options.js';
import { labelledRates, queryLabel } from '../src/query-counter.js';
import { renderChart } from '../src/chart.js';
import type { CellResult } from '../src/cell-result.js';
import { formatReport, type BenchReport } from '../src/report.js';
import { median, summariseRounds } from '../src/rounds.js';
import { summarise } from '../src/samples.js';

describe('parseBenchArgs', () => {
  it('reads workloads, slots and counts', () => {
    const options = parseBenchArgs(
      [
        '--workloads',
        'fan-out-5,hello',
        '--slots',
        '1:1,4:8',
        '--instances',
        '50',
        '--runtimes',
        'duro',
      ],
      {},
    );
    if (options === 'help') throw new Error('expected options');
    expect(options.workloads.map((w) => w.name)).toEqual(['fan-out-5', 'hello']);
    expect(options.slots).toEqual([
      { orchestration: 1, worker: 1 },
      { orchestration: 4, worker: 8 },
    ]);
    expect(options.instances).toBe(50);
    expect(options.runtimes).toEqual(['duro']);
    expect(options.rounds).toBe(1);
    expect(options.databaseUrl).toBeNull();
    expect(options.stages).toBe(false);
    const timed = parseBenchArgs(['--stages'], {});
    expect(timed !== 'help' && timed.stages).toBe(true);
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
    expect(() => parseBenchArgs(['--slots', '2x2'], {})).toThrow(
      /--slots takes dispatcher:worker pairs/,
    );
    expect(() => parseBenchArgs(['--instances', '0'], {})).toThrow(
      /--instances must be an integer >= 1/,
    );
    expect(() => parseBenchArgs(['--workloads', 'nope'], {})).toThrow(/unknown workload "nope"/);
    expect(() => parseBenchArgs(['--idle-slots', '4'], {})).toThrow(
      /--idle-slots takes dispatcher:worker pairs/,
    );
    expect(() => parseBenchArgs(['--rounds', '0'], {})).toThrow(/--rounds must be an integer >= 1/);
    expect(() => parseBenchArgs(['--runtimes', 'go'], {})).toThrow(UsageError);
    expect(() => parseBenchArgs(['--frobnicate'], {})).toThrow(UsageError);
  });
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
  processCpuMsPerOrchestration: 1.5,
  machineCpuMsPerOrchestration: 4.25,
  machineBusyCores: 1.9,
});

const fanOutCell = (runtime: CellResult['runtime'], round: number, orchPerSecond: number) => ({
  workload: 'fan-out-5',
  slots: { orchestration: 1, worker: 1 },
  runtime,
  round,
  inFlight: 20,
  figures: figures(orchPerSecond, round * 5),
});

/** A duro and a Rust cell per round, from each round's pair of orch/s. */
const alternatingRounds = (rounds: readonly (readonly [number, number])[]): CellResult[] =>
  rounds.flatMap(([duro, rust], index) => [
    fanOutCell('duro', index + 1, duro),
    fanOutCell('rust', index + 1, rust),
  ]);

const reportOf = (cells: CellResult[]): BenchReport => ({
  date: '2026-01-01T00:00:00.000Z',
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
  futureTimers: 0,
  pgbench: [{ clients: 1, tps: 1234.4 }],
  cells,
  medians: summariseRounds(cells),
  idle: [],
  soak: null,
});

describe('formatReport', () => {
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
      /^- fan-out-5 1:1 duro round 1: turn commit sent → turn committed 12\.5 \(×2\.0\)$/m,
    );
    expect(text).not.toContain('turn fetched → start committed');
  });

  it('prints each cell with the duro/Rust ratio', () => {
    const text = formatReport(reportOf(alternatingRounds([[150, 15]])));
    expect(text).toContain('- synchronous_commit: on');
    expect(text).toContain('| 1 | 1234 |');
    expect(text).toContain(
      '| fan-out-5 | 1:1 | duro | 1 | 20 | 150.0 | 750.0 | 5.0 | 8.0 | 9.0 | 11.0 | 12.0 | 1.50 | 4.25 | 1.90 | 10.0× |',
    );
    expect(text).toContain(
      '| fan-out-5 | 1:1 | rust | 1 | 20 | 15.0 | 75.0 | 5.0 | 8.0 | 9.0 | 11.0 | 12.0 | 1.50 | 4.25 | 1.90 |  |',
    );
    expect(text).not.toContain('Medians over rounds');
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
    expect(text).toContain('| fan-out-5 | 1:1 | duro | 2 | 20 | 200.0 |');
    expect(text).toContain('| 8.0× |');
    expect(text).toContain('## Medians over rounds');
    expect(text).toContain(
      '| fan-out-5 | 1:1 | duro | 3 | 180.0 | 150.0–200.0 | 10.0 | 4.25 | 9.0× |',
    );
    expect(text).toContain('| fan-out-5 | 1:1 | rust | 3 | 20.0 | 10.0–25.0 | 10.0 | 4.25 |  |');
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
    expect(svg).toContain('fan-out-5 1:1 (duro/Rust 11.5×)');
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
        cpu: { wallMs: 400, processMs: 60, machineMs: 600 },
      },
      1,
    );
    expect(figures.instances).toBe(2);
    expect(figures.orchestrationsPerSecond).toBe(10);
    expect(figures.activitiesPerSecond).toBe(50);
    expect(figures.p50Ms).toBe(10);
    expect(figures.p99Ms).toBe(190);
    expect(figures.commitsPerOrchestration).toBe(10);
    expect(figures.processCpuMsPerOrchestration).toBe(20);
    expect(figures.machineCpuMsPerOrchestration).toBe(200);
    expect(figures.machineBusyCores).toBe(1.5);
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
        cpu: { wallMs: 1, processMs: 0, machineMs: 0 },
      },
      0,
    );
    expect(figures.p99Ms).toBe(10);
    expect(figures.maxMs).toBe(5_000);
  });
});
