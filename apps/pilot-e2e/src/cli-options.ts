import { parseArgs } from 'node:util';
import { isPresetName, PRESETS, type PresetName } from './presets.js';
import type { SwarmConfig } from './swarm-config.js';

/** A command line that cannot be run, with the reason. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What the command line asks for. */
export interface CliOptions {
  readonly preset: PresetName;
  readonly config: SwarmConfig;
  /** A server to use instead of an embedded one. */
  readonly databaseUrl: string | undefined;
  readonly reportFile: string | undefined;
  readonly logDir: string | undefined;
  readonly schemaPrefix: string;
  readonly keepSchemas: boolean;
  readonly mixedFleet: boolean;
  readonly help: boolean;
}

/** The `--help` text. */
export const USAGE = `Usage: pilot-e2e [options]

Runs duro's end-to-end swarm check: worker processes, long-lived sessions, chaos, and the
invariants that must hold. Exits 0 when every invariant passed, 1 when one failed, 2 on a bad
command line, 3 when the run itself could not be carried out.

  --preset NAME              smoke | default | soak | chaos | faults (default: default)
  --database-url URL         run on this PostgreSQL instead of an embedded one
  --workers N                worker processes on the main schema
  --sessions N               root sessions on the main schema
  --second-schema-workers N  worker processes on the second schema (0 turns it off)
  --second-schema-sessions N root sessions on the second schema
  --duration TIME            how long clients send messages (90, 90s, 10m, 1h)
  --settle-timeout TIME      longest wait for the swarm to finish after the load
  --seed N                   seed of every random choice
  --no-chaos                 inject no faults
  --kills N                  SIGKILLs of a worker mid-activity
  --ack-kills N              SIGKILLs of a worker mid-acknowledgement
  --freezes N                SIGSTOPs past the orchestration lock timeout
  --connection-drops N       pg_terminate_backend of a worker's connections
  --rolling-restarts N       rolling restarts with graceful drain
  --server-restarts N        crashes and restarts of the run's own PostgreSQL (not with
                             --database-url)
  --report FILE              also write the report as JSON to FILE
  --log-dir DIR              where worker logs go (default: a new temporary folder)
  --schema-prefix NAME       prefix of the run's schemas (default: pilot)
  --keep-schemas             keep the schemas even when the run passed
  --mixed-fleet              make the last main-schema worker the Rust runtime (@duro/native)
  --help                     show this text
`;

function count(flag: string, text: string | undefined, min = 0): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw new UsageError(`--${flag} must be an integer >= ${min}, got ${JSON.stringify(text)}`);
  }
  return value;
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = {
  '': 1_000,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

/** A duration flag: seconds as a bare number, or a number with `s`, `m` or `h` (`90s`, `10m`). */
function durationMs(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)([smh]?)$/.exec(text.trim());
  const value = match === null ? Number.NaN : Number(match[1]);
  if (match === null || value <= 0) {
    throw new UsageError(
      `--${flag} must be a positive duration such as 90, 90s, 10m or 1h, got ${JSON.stringify(text)}`,
    );
  }
  return Math.round(value * DURATION_UNITS_MS[match[2]!]!);
}

/** Drops the fields a flag did not set, so they do not override the preset. */
function defined<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/**
 * Reads the command line into a run: a preset, with single fields overridden by flags. A
 * leading `--` is skipped: `pnpm start -- --report r.json` hands its `--` on to the script.
 * @throws {UsageError} naming the flag that is unknown or out of range.
 */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv[0] === '--' ? argv.slice(1) : [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        preset: { type: 'string' },
        'database-url': { type: 'string' },
        workers: { type: 'string' },
        sessions: { type: 'string' },
        'second-schema-workers': { type: 'string' },
        'second-schema-sessions': { type: 'string' },
        duration: { type: 'string' },
        'settle-timeout': { type: 'string' },
        seed: { type: 'string' },
        'no-chaos': { type: 'boolean' },
        kills: { type: 'string' },
        'ack-kills': { type: 'string' },
        freezes: { type: 'string' },
        'connection-drops': { type: 'string' },
        'rolling-restarts': { type: 'string' },
        'server-restarts': { type: 'string' },
        report: { type: 'string' },
        'log-dir': { type: 'string' },
        'schema-prefix': { type: 'string' },
        'keep-schemas': { type: 'boolean' },
        'mixed-fleet': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  const presetName = values.preset ?? 'default';
  if (!isPresetName(presetName)) {
    throw new UsageError(
      `--preset must be one of ${Object.keys(PRESETS).join(', ')}, got ${JSON.stringify(presetName)}`,
    );
  }
  const preset = PRESETS[presetName];
  const schemaPrefix = values['schema-prefix'] ?? 'pilot';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(schemaPrefix)) {
    throw new UsageError(
      `--schema-prefix must be a lower-case identifier of up to 41 characters, got ${JSON.stringify(schemaPrefix)}`,
    );
  }
  const chaos = {
    ...preset.chaos,
    ...defined({
      killMidActivity: count('kills', values.kills),
      killMidAck: count('ack-kills', values['ack-kills']),
      freezes: count('freezes', values.freezes),
      connectionDrops: count('connection-drops', values['connection-drops']),
      rollingRestarts: count('rolling-restarts', values['rolling-restarts']),
      serverRestarts: count('server-restarts', values['server-restarts']),
    }),
  };
  const config: SwarmConfig = {
    ...preset,
    ...defined({
      workers: count('workers', values.workers, 1),
      sessions: count('sessions', values.sessions, 1),
      secondSchemaWorkers: count('second-schema-workers', values['second-schema-workers']),
      secondSchemaSessions: count('second-schema-sessions', values['second-schema-sessions']),
      loadDurationMs: durationMs('duration', values.duration),
      settleTimeoutMs: durationMs('settle-timeout', values['settle-timeout']),
      seed: count('seed', values.seed),
    }),
    chaos: values['no-chaos'] === true ? { ...chaos, enabled: false } : chaos,
  };
  if (values['database-url'] !== undefined && chaos.enabled && chaos.serverRestarts > 0) {
    throw new UsageError(
      `server restarts crash the run's own embedded PostgreSQL, which --database-url replaces: drop --database-url or add --server-restarts 0 (the ${presetName} preset has ${chaos.serverRestarts})`,
    );
  }
  const mixedFleet = values['mixed-fleet'] === true;
  if (mixedFleet && config.workers < 2) {
    throw new UsageError(
      `--mixed-fleet needs at least 2 main-schema workers (duro and Rust side by side), got --workers ${config.workers}`,
    );
  }
  return {
    preset: presetName,
    config,
    databaseUrl: values['database-url'],
    reportFile: values.report,
    logDir: values['log-dir'],
    schemaPrefix,
    keepSchemas: values['keep-schemas'] === true,
    mixedFleet,
    help: values.help === true,
  };
}
