import type { PostgresSslOptions } from './connection/postgres-ssl-options.js';

/** Options of `PostgresProvider.connect` and `PostgresProvider.connectWithSchema`. */
export interface PostgresProviderOptions {
  /**
   * Most connections the provider's pool opens. The listening connection that wakes idle
   * fetches is one more, opened on the first fetch that waits.
   * @default the environment variable `DUROXIDE_PG_POOL_MAX`, else 10 (as duroxide-pg)
   */
  readonly poolSize?: number;
  /**
   * How long a call waits for a free pool connection (or for a new one to open) before it fails
   * with a retryable error, ms.
   * @default 30_000 (duroxide-pg's acquire timeout)
   */
  readonly connectionTimeoutMs?: number;
  /**
   * TLS settings of every connection, as libpq would take them from `sslmode`, `sslrootcert`,
   * `sslcert` and `sslkey`. A field left out comes from the database URL, then from `PGSSLMODE`,
   * `PGSSLROOTCERT`, `PGSSLCERT` and `PGSSLKEY`. Use `{ mode: 'verify-full' }` in production.
   * @default no TLS, unless the URL or the environment asks for it
   */
  readonly ssl?: PostgresSslOptions;
  /**
   * PostgreSQL `lock_timeout` of the provider's sessions: a statement waiting longer than this
   * for a row or advisory lock fails with a retryable error, ms. 0 waits forever. Not to be
   * confused with the lock timeout of a fetch, which is the lease of the claimed work.
   * @default 30_000
   */
  readonly lockWaitTimeoutMs?: number;
  /**
   * PostgreSQL `statement_timeout` of the provider's sessions: a statement running longer is
   * cancelled and fails with a retryable error, ms. 0 lets statements run as long as they take.
   * @default 0 (no limit, as duroxide-pg)
   */
  readonly statementTimeoutMs?: number;
  /**
   * PostgreSQL `application_name` of the provider's sessions, shown in `pg_stat_activity`.
   * @default 'duro'
   */
  readonly applicationName?: string;
  /**
   * Whether connecting brings the schema up to date with the migration runner (creating it when
   * missing), as duroxide-pg does. Turn it off for roles without DDL rights when another process
   * migrates.
   * @default true
   */
  readonly migrate?: boolean;
  /**
   * The last duroxide migration to apply when migrating, for a fleet that still runs an older
   * duroxide-pg (such as 23 for the one in duroxide-node 0.1.29). Must be a version the package
   * knows.
   * @default the latest known version
   */
  readonly migrateToVersion?: number;
  /**
   * How often a queue with idle fetches is looked at even though no notification came and no
   * delayed message this provider knows of is due, ms: the safety net for work that sends no
   * notification (an expired lock; before duro migration 13, a delayed message another process
   * scheduled). One fetch per queue (and filter) polls, however many fetches wait, and the
   * queue's due times are read again. While the listening connection is down, the queue is
   * polled at least every 100 ms.
   * @default 5_000
   */
  readonly idlePollIntervalMs?: number;
  /**
   * How many instances' histories the provider keeps in memory, so that the next turn of an
   * instance it ran fetches only the events written since: the least recently run instance is
   * dropped first, and an instance is dropped when its execution ends. A held history costs
   * memory like its decoded events. 0 turns the cache off, and every fetch reads the whole
   * history. The cache needs the duro track's migration 2 on a schema whose duroxide track is
   * at 26; on any other schema it stays off.
   * @default 256
   */
  readonly historyCacheSize?: number;
  /**
   * How often the provider vacuums the queue tables (`orchestrator_queue`, `worker_queue`,
   * `instance_locks`) while it claims and acknowledges work, ms. Every turn and activity leaves
   * dead rows there; until a vacuum, statements read them again, and autovacuum comes round about
   * once a minute, by which time a busy worker runs at half speed. An idle provider does not
   * vacuum. The role needs the right to vacuum the tables (their owner does); without it the
   * server skips them with a warning. 0 leaves the tables to autovacuum.
   * @default 10_000
   */
  readonly queueVacuumIntervalMs?: number;
  /**
   * Gives up the durability of claims for one disk flush less per claim: a fetch (of a turn or
   * of activities) then commits with `synchronous_commit = off` for its own transaction, so it
   * does not wait for the write-ahead log to reach the disk. Acknowledgements, enqueues and
   * client writes still commit as the server is configured, so nothing acknowledged is ever at
   * risk. What a server crash (not a worker crash) costs with it on: the claims of the last
   * moments before the crash (up to three times `wal_writer_delay`: 600 ms on a default server)
   * may be lost. Their work is then claimable again at once, while the worker that
   * claimed it may still be running it, so an activity can run twice at the same time (the
   * holder's acknowledgement then fails on its lock token and its result is discarded), and the
   * lost deliveries do not count towards `maxAttempts`.
   * @default false (every claim commits durably, as in duroxide-pg)
   */
  readonly nonDurableClaims?: boolean;
  /**
   * The clock passed to every procedure as `p_now_ms`, epoch ms. Replace it in tests to
   * simulate a slow or skewed worker clock.
   * @default Date.now
   */
  readonly nowMs?: () => number;
}

/** {@link PostgresProviderOptions} with every default applied. @internal */
export type ResolvedProviderOptions = Required<
  Omit<PostgresProviderOptions, 'migrateToVersion' | 'ssl'>
> & {
  readonly migrateToVersion: number | undefined;
  readonly ssl: PostgresSslOptions | undefined;
};

/**
 * `value`, or `fallback` when it is undefined.
 * @throws {RangeError} naming the option when the value is negative or not an integer.
 * @internal
 */
export function nonNegativeInteger(
  name: string,
  value: number | undefined,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  return value;
}

function flag(name: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new TypeError(`${name} must be true or false, got ${String(value)}`);
  }
  return value;
}

/**
 * `value` when it is a whole number of at least 1.
 * @throws {RangeError} naming the option otherwise.
 * @internal
 */
export function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}

/** duroxide-pg's pool size, and the variable it reads it from. */
const DEFAULT_POOL_SIZE = 10;
const POOL_SIZE_VARIABLE = 'DUROXIDE_PG_POOL_MAX';

function poolSizeFromEnvironment(env: NodeJS.ProcessEnv): number {
  const text = env[POOL_SIZE_VARIABLE]?.trim();
  if (text === undefined || text === '') return DEFAULT_POOL_SIZE;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || !Number.isSafeInteger(value)) {
    throw new RangeError(`${POOL_SIZE_VARIABLE} must be a positive integer, got '${text}'`);
  }
  return value;
}

/**
 * The default safety-net poll: an idle provider then sends, per queue, one fetch and one
 * due-time read every 5 s, well under one query per second in all.
 */
const DEFAULT_IDLE_POLL_INTERVAL_MS = 5_000;

/**
 * Applies the defaults (the pool size from `DUROXIDE_PG_POOL_MAX` in `env` when the options do
 * not give it) and checks the values.
 * @throws {RangeError} naming the option (or the variable) when a number is negative,
 * fractional, or (for `poolSize` and `idlePollIntervalMs`) zero.
 * @internal
 */
export function resolveProviderOptions(
  options: PostgresProviderOptions,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedProviderOptions {
  const poolSize =
    options.poolSize === undefined
      ? poolSizeFromEnvironment(env)
      : nonNegativeInteger('poolSize', options.poolSize, DEFAULT_POOL_SIZE);
  const idlePollIntervalMs = nonNegativeInteger(
    'idlePollIntervalMs',
    options.idlePollIntervalMs,
    DEFAULT_IDLE_POLL_INTERVAL_MS,
  );
  if (poolSize === 0) throw new RangeError('poolSize must be at least 1');
  if (idlePollIntervalMs === 0) throw new RangeError('idlePollIntervalMs must be at least 1');
  return {
    poolSize,
    connectionTimeoutMs: nonNegativeInteger(
      'connectionTimeoutMs',
      options.connectionTimeoutMs,
      30_000,
    ),
    lockWaitTimeoutMs: nonNegativeInteger('lockWaitTimeoutMs', options.lockWaitTimeoutMs, 30_000),
    statementTimeoutMs: nonNegativeInteger('statementTimeoutMs', options.statementTimeoutMs, 0),
    applicationName: options.applicationName ?? 'duro',
    migrate: options.migrate ?? true,
    migrateToVersion: options.migrateToVersion,
    ssl: options.ssl,
    idlePollIntervalMs,
    historyCacheSize: nonNegativeInteger('historyCacheSize', options.historyCacheSize, 256),
    queueVacuumIntervalMs: nonNegativeInteger(
      'queueVacuumIntervalMs',
      options.queueVacuumIntervalMs,
      10_000,
    ),
    nonDurableClaims: flag('nonDurableClaims', options.nonDurableClaims, false),
    nowMs: options.nowMs ?? Date.now,
  };
}
