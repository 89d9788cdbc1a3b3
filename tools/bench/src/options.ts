import { parseArgs } from 'node:util';
import { WORKLOADS, workloadsNamed, type Workload } from './workloads.js';

/** Dispatcher and worker slots of one runtime. */
export interface Slots {
  readonly orchestration: number;
  readonly worker: number;
}

/** Slots as the command line writes them, `dispatcher:worker`. */
export const slotsText = (slots: Slots): string => `${slots.orchestration}:${slots.worker}`;

/**
 * `duro-uncached` is duro with its provider's history cache off; `duro-one-turn` is duro with
 * one orchestration turn per fetch (`orchestrationBatchSize: 1`); `duro-fetched` is duro whose
 * worker fetches every activity (`activityHandoff: false`).
 */
export type RuntimeName = 'duro' | 'duro-uncached' | 'duro-one-turn' | 'duro-fetched' | 'rust';

const RUNTIME_NAMES: readonly RuntimeName[] = [
  'duro',
  'duro-uncached',
  'duro-one-turn',
  'duro-fetched',
  'rust',
];

/** Everything the command line decides. */
export interface BenchOptions {
  /** The server to measure; `null` starts an embedded PostgreSQL. */
  readonly databaseUrl: string | null;
  readonly workloads: readonly Workload[];
  readonly slots: readonly Slots[];
  readonly runtimes: readonly RuntimeName[];
  /** Measured instances per cell. */
  readonly instances: number;
  /** Passes over every runtime at each workload and slot setting, run back to back. */
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
  /** The slots of each idle worker watched, one after another. */
  readonly idleSlots: readonly Slots[];
  /** Seconds of the fan-out-5 soak that samples the worker's RSS; 0 skips it. */
  readonly soakSeconds: number;
  /** Time the stages of duro instances (see `StageTimes`). */
  readonly stages: boolean;
  readonly jsonFile: string | null;
  readonly chartFile: string | null;
}

export const USAGE = `usage: duro-bench [options]

  --database-url URL     server to measure (default: DATABASE_URL, else an embedded PostgreSQL)
  --workloads LIST       comma-separated, default all: ${WORKLOADS.map((w) => w.name).join(',')}
  --slots LIST           dispatcher:worker slots, default 1:1,2:2,4:4
  --runtimes LIST        duro,duro-uncached,duro-one-turn,duro-fetched,rust (default duro,rust,
                         alternating per cell; duro-uncached is duro with the history cache
                         off, duro-one-turn is duro claiming one orchestration turn per fetch,
                         duro-fetched is duro fetching every activity: activityHandoff off)
  --instances N          measured instances per cell (default 200)
  --warmup N             unmeasured instances before them (default 20)
  --rounds N             run every runtime's cell N times at each setting, alternating, and
                         print the medians too (default 1)
  --in-flight N          instances running at once, for every workload (default per workload)
  --future-timers N      future timers queued in each cell's schema first (default 0)
  --pgbench-seconds N    pgbench seconds per client count, 0 to skip (default 10)
  --idle-seconds N       watch an idle duro worker's queries for N s, 0 to skip (default 0)
  --idle-slots LIST      the idle workers' dispatcher:worker slots, default 1:1
  --soak-seconds N       fan-out-5 soak sampling the worker's RSS, 0 to skip (default 0)
  --stages               in duro cells, time where an instance's time goes between the
                         provider calls that move it on (start, fetches, commits)
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

function parseSlots(text: string, flag: string): Slots[] {
  return list(text).map((pair) => {
    const match = /^(\d+):(\d+)$/.exec(pair);
    if (match === null) {
      throw new UsageError(
        `--${flag} takes dispatcher:worker pairs such as 2:2, got ${JSON.stringify(pair)}`,
      );
    }
    return {
      orchestration: integer(flag, match[1] ?? '', 1),
      worker: integer(flag, match[2] ?? '', 1),
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
 * Reads the command line (without node and the script).
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
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'database-url': { type: 'string' },
        workloads: { type: 'string', default: WORKLOADS.map((w) => w.name).join(',') },
        slots: { type: 'string', default: '1:1,2:2,4:4' },
        runtimes: { type: 'string', default: 'duro,rust' },
        instances: { type: 'string', default: '200' },
        warmup: { type: 'string', default: '20' },
        rounds: { type: 'string', default: '1' },
        'in-flight': { type: 'string' },
        'future-timers': { type: 'string', default: '0' },
        'pgbench-seconds': { type: 'string', default: '10' },
        'idle-seconds': { type: 'string', default: '0' },
        'idle-slots': { type: 'string', default: '1:1' },
        'soak-seconds': { type: 'string', default: '0' },
        stages: { type: 'boolean', default: false },
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
  const slots = parseSlots(values.slots, 'slots');
  const idleSlots = parseSlots(values['idle-slots'], 'idle-slots');
  const runtimes = parseRuntimes(values.runtimes);
  if (
    workloads.length === 0 ||
    slots.length === 0 ||
    runtimes.length === 0 ||
    idleSlots.length === 0
  ) {
    throw new UsageError(
      '--workloads, --slots, --idle-slots and --runtimes must each name at least one',
    );
  }
  const url = values['database-url'] ?? env.DATABASE_URL?.trim();
  return {
    databaseUrl: url === undefined || url === '' ? null : url,
    workloads,
    slots,
    runtimes,
    instances: integer('instances', values.instances, 1),
    warmup: integer('warmup', values.warmup, 0),
    rounds: integer('rounds', values.rounds, 1),
    inFlight:
      values['in-flight'] === undefined ? null : integer('in-flight', values['in-flight'], 1),
    futureTimers: integer('future-timers', values['future-timers'], 0),
    pgbenchSeconds: integer('pgbench-seconds', values['pgbench-seconds'], 0),
    idleSeconds: integer('idle-seconds', values['idle-seconds'], 0),
    idleSlots,
    soakSeconds: integer('soak-seconds', values['soak-seconds'], 0),
    stages: values.stages,
    jsonFile: values.json ?? null,
    chartFile: values.chart ?? null,
  };
}
