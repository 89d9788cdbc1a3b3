import { parseArgs } from 'node:util';
import { DEFAULT_WORKLOADS, WORKLOADS, workloadsNamed, type Workload } from './workloads.js';

/**
 * What a cell lets each runtime run at once, the same for both sides: orchestration slots
 * (duro's `orchestrationConcurrency`, duroxide's `orchestration_concurrency`) and activities
 * (duro's `workerConcurrency`, duroxide's `worker_concurrency`), per runtime process.
 */
export interface Caps {
  readonly orchestrations: number;
  readonly activities: number;
}

/** Caps as the command line writes them, `orchestrations:activities`. */
export const capsText = (caps: Caps): string => `${caps.orchestrations}:${caps.activities}`;

/**
 * `duro` is duro on its defaults; `duro-uncached` has its provider's history cache off;
 * `duro-one-turn` claims one orchestration turn per fetch (`orchestrationBatchSize: 1`);
 * `duro-fetched` fetches every activity (`activityHandoff: false`); `duro-non-durable-claims`
 * commits claims without waiting for the disk (`nonDurableClaims`), a weaker guarantee than
 * Rust's, so its cells are marked unequal and get no ratio.
 */
export type RuntimeName =
  'duro' | 'duro-uncached' | 'duro-one-turn' | 'duro-fetched' | 'duro-non-durable-claims' | 'rust';

export const RUNTIME_NAMES: readonly RuntimeName[] = [
  'duro',
  'duro-uncached',
  'duro-one-turn',
  'duro-fetched',
  'duro-non-durable-claims',
  'rust',
];

/** Settings of each runtime that are not guarantees: how it gets its work, not what it promises. */
export interface RuntimeSettings {
  /** duro's `orchestrationBatchSize`: turns one orchestration slot claims per fetch. */
  readonly duroOrchestrationBatch: number;
  /** duro's `workerBatchSize`: activities one fetch claims, at most; `null`: the cap. */
  readonly duroWorkerBatch: number | null;
  /** duro's pool connections (`poolSize`). */
  readonly duroPool: number;
  /** duroxide's `dispatcher_min_poll_interval`, ms: how soon an idle slot polls again. */
  readonly rustPollMs: number;
  /** duroxide-pg's pool connections; `null`: the caps' slots plus two, 10 to 50. */
  readonly rustPool: number | null;
}

/** Everything the command line decides. */
export interface BenchOptions {
  /** The server to measure; `null` starts an embedded PostgreSQL. */
  readonly databaseUrl: string | null;
  readonly workloads: readonly Workload[];
  readonly caps: readonly Caps[];
  /** Runtime processes per cell, each with the cell's caps; every count is a cell of its own. */
  readonly processes: readonly number[];
  readonly runtimes: readonly RuntimeName[];
  readonly settings: RuntimeSettings;
  /** Measured instances per cell. */
  readonly instances: number;
  /** Passes over every runtime at each workload and setting, run back to back. */
  readonly rounds: number;
  /** Instances run before the measured ones in each cell, unmeasured. */
  readonly warmup: number;
  /** Overrides every workload's instances in flight. */
  readonly inFlight: number | null;
  /** Future timers put in each cell's schema before it runs (a backlog nothing fires). */
  readonly futureTimers: number;
  /** Seconds of pgbench per client count; 0 skips pgbench. */
  readonly pgbenchSeconds: number;
  /** Seconds an idle duro worker is watched; 0 skips the idle measurement. */
  readonly idleSeconds: number;
  /** The caps of each idle worker watched, one after another. */
  readonly idleCaps: readonly Caps[];
  /** Seconds of the fan-out-5 soak that samples the worker's RSS; 0 skips it. */
  readonly soakSeconds: number;
  /** Time the stages of duro instances (see `StageTimes`). */
  readonly stages: boolean;
  /** Node.js flags of every runtime process, such as `--cpu-prof`. */
  readonly runtimeNodeArgs: readonly string[];
  /** Runs the Rust cells even in a debug build of `@duro/native` (see `native-addon.ts`). */
  readonly allowDebugAddon: boolean;
  readonly jsonFile: string | null;
  readonly chartFile: string | null;
}

/** The caps every cell runs at unless `--caps` says otherwise. */
export const DEFAULT_CAPS = '2:2,8:16,4:100';

export const USAGE = `usage: duro-bench [options]

  --database-url URL     server to measure (default: DATABASE_URL, else an embedded PostgreSQL)
  --workloads LIST       comma-separated, default ${DEFAULT_WORKLOADS.join(',')};
                         known: ${WORKLOADS.map((w) => w.name).join(',')}
  --caps LIST            orchestrations:activities each runtime process may run at once, the
                         same for both runtimes (default ${DEFAULT_CAPS})
  --processes LIST       runtime processes per cell, each with the caps (default 1; 1,2,4
                         shows the cost of coordinating processes on one database)
  --runtimes LIST        ${RUNTIME_NAMES.join(',')} (default duro,rust, alternating per cell)
  --duro-orchestration-batch N   turns per orchestration fetch (default 8, duro's)
  --duro-worker-batch N  activities per fetch at most (default: the activity cap, duro's)
  --duro-pool N          duro's pool connections (default 10, duro's)
  --rust-poll-ms N       duroxide's dispatcher poll interval, ms (default 10: its best
                         documented setting, not its 100 ms default)
  --rust-pool N          duroxide-pg's pool connections (default: the caps' slots plus 2,
                         at least 10 and at most 50)
  --instances N          measured instances per cell (default 200)
  --warmup N             unmeasured instances before them (default 20)
  --rounds N             run every runtime's cell N times at each setting, alternating, and
                         print the medians too (default 1)
  --in-flight N          instances running at once, for every workload (default per workload)
  --future-timers N      future timers queued in each cell's schema first (default 0)
  --pgbench-seconds N    pgbench seconds per client count, 0 to skip (default 10)
  --idle-seconds N       watch an idle duro worker's queries for N s, 0 to skip (default 0)
  --idle-caps LIST       the idle workers' caps, default 2:2
  --soak-seconds N       fan-out-5 soak sampling the worker's RSS, 0 to skip (default 0)
  --stages               in duro cells, time where an instance's time goes between the
                         provider calls that move it on (start, fetches, commits)
  --runtime-node-args=ARGS  Node.js flags of the runtime processes, space-separated, such
                         as --runtime-node-args="--cpu-prof --cpu-prof-dir=prof" (with "=")
  --allow-debug-addon    run the Rust cells in a debug build of @duro/native (refused
                         otherwise: it runs the Rust side several times slower)
  --json FILE            write every figure as JSON
  --chart FILE           write an SVG chart of orchestrations/s
  --help                 print this`;

/** Thrown for a command line that cannot run; the message names what was wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

function integer(name: string, text: string, min: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(text)}`);
  }
  return value;
}

const list = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

function parseCaps(text: string, flag: string): Caps[] {
  return list(text).map((pair) => {
    const match = /^(\d+):(\d+)$/.exec(pair);
    if (match === null) {
      throw new UsageError(
        `--${flag} takes orchestrations:activities pairs such as 2:2, got ${JSON.stringify(pair)}`,
      );
    }
    return {
      orchestrations: integer(flag, match[1] ?? '', 1),
      activities: integer(flag, match[2] ?? '', 1),
    };
  });
}

function parseRuntimes(text: string): RuntimeName[] {
  return list(text).map((name) => {
    const runtime = RUNTIME_NAMES.find((known) => known === name);
    if (runtime === undefined) {
      throw new UsageError(
        `--runtimes takes ${RUNTIME_NAMES.join(', ')}, got ${JSON.stringify(name)}`,
      );
    }
    return runtime;
  });
}

/**
 * The script's arguments without the leading `--` that
 * `pnpm --filter @duro/bench bench -- --rounds 3` hands on to it.
 */
export function scriptArguments(argv: readonly string[]): string[] {
  return argv[0] === '--' ? argv.slice(1) : [...argv];
}

/**
 * Reads the command line (without node and the script; a leading `--` is skipped, see
 * {@link scriptArguments}).
 * @returns the options, or `'help'` when `--help` was given.
 * @throws {UsageError} naming the flag that was wrong.
 */
export function parseBenchArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): BenchOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: scriptArguments(argv),
      strict: true,
      allowPositionals: false,
      options: {
        'database-url': { type: 'string' },
        workloads: { type: 'string', default: DEFAULT_WORKLOADS.join(',') },
        caps: { type: 'string', default: DEFAULT_CAPS },
        processes: { type: 'string', default: '1' },
        runtimes: { type: 'string', default: 'duro,rust' },
        'duro-orchestration-batch': { type: 'string', default: '8' },
        'duro-worker-batch': { type: 'string' },
        'duro-pool': { type: 'string', default: '10' },
        'rust-poll-ms': { type: 'string', default: '10' },
        'rust-pool': { type: 'string' },
        instances: { type: 'string', default: '200' },
        warmup: { type: 'string', default: '20' },
        rounds: { type: 'string', default: '1' },
        'in-flight': { type: 'string' },
        'future-timers': { type: 'string', default: '0' },
        'pgbench-seconds': { type: 'string', default: '10' },
        'idle-seconds': { type: 'string', default: '0' },
        'idle-caps': { type: 'string', default: '2:2' },
        'soak-seconds': { type: 'string', default: '0' },
        stages: { type: 'boolean', default: false },
        'runtime-node-args': { type: 'string', default: '' },
        'allow-debug-addon': { type: 'boolean', default: false },
        json: { type: 'string' },
        chart: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  let workloads: Workload[];
  try {
    workloads = workloadsNamed(list(values.workloads));
  } catch (error) {
    throw new UsageError(`--workloads: ${(error as Error).message}`);
  }
  const caps = parseCaps(values.caps, 'caps');
  const idleCaps = parseCaps(values['idle-caps'], 'idle-caps');
  const runtimes = parseRuntimes(values.runtimes);
  const processes = list(values.processes).map((text) => integer('processes', text, 1));
  if (
    workloads.length === 0 ||
    caps.length === 0 ||
    runtimes.length === 0 ||
    idleCaps.length === 0 ||
    processes.length === 0
  ) {
    throw new UsageError(
      '--workloads, --caps, --processes, --idle-caps and --runtimes must each name at least one',
    );
  }
  const optionalInteger = (flag: string, text: string | undefined): number | null =>
    text === undefined ? null : integer(flag, text, 1);
  const url = values['database-url'] ?? env.DATABASE_URL?.trim();
  return {
    databaseUrl: url === undefined || url === '' ? null : url,
    workloads,
    caps,
    processes,
    runtimes,
    settings: {
      duroOrchestrationBatch: integer(
        'duro-orchestration-batch',
        values['duro-orchestration-batch'],
        1,
      ),
      duroWorkerBatch: optionalInteger('duro-worker-batch', values['duro-worker-batch']),
      duroPool: integer('duro-pool', values['duro-pool'], 1),
      rustPollMs: integer('rust-poll-ms', values['rust-poll-ms'], 1),
      rustPool: optionalInteger('rust-pool', values['rust-pool']),
    },
    instances: integer('instances', values.instances, 1),
    warmup: integer('warmup', values.warmup, 0),
    rounds: integer('rounds', values.rounds, 1),
    inFlight:
      values['in-flight'] === undefined ? null : integer('in-flight', values['in-flight'], 1),
    futureTimers: integer('future-timers', values['future-timers'], 0),
    pgbenchSeconds: integer('pgbench-seconds', values['pgbench-seconds'], 0),
    idleSeconds: integer('idle-seconds', values['idle-seconds'], 0),
    idleCaps,
    soakSeconds: integer('soak-seconds', values['soak-seconds'], 0),
    stages: values.stages,
    runtimeNodeArgs: values['runtime-node-args'].split(' ').filter((arg) => arg !== ''),
    allowDebugAddon: values['allow-debug-addon'],
    jsonFile: values.json ?? null,
    chartFile: values.chart ?? null,
  };
}
