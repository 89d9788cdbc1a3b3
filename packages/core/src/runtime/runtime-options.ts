import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { parseSemver } from '../model/semver.js';
import { TagFilter, type SemverRange } from '../provider/fetch-filters.js';
import { tracingLogger } from './init-tracing.js';
import type { LogFormat } from './log-line-format.js';
import { createDefaultLogger, type Logger, type LogLevel } from './logger.js';
import { DUROXIDE_SEMVER } from './runtime-version.js';

/**
 * Which activity tags this runtime's workers take, in duroxide-node's forms: `'defaultOnly'`
 * (untagged only, the default), `'any'`, `'none'` (orchestrations only), `{ tags: [...] }` (only
 * those) or `{ defaultAnd: [...] }` (untagged and those); or `'tags'` / `'defaultAnd'` with the
 * tags in `workerTagFilterTags`.
 */
export type TagFilterOption =
  | 'defaultOnly'
  | 'any'
  | 'none'
  | 'tags'
  | 'defaultAnd'
  | {
      /** Only activities with one of these tags. */
      readonly tags: readonly string[];
    }
  | {
      /** Untagged activities and those with one of these tags. */
      readonly defaultAnd: readonly string[];
    };

/**
 * Options of `new Runtime(provider, options)`, named as duroxide-node's `RuntimeOptions`.
 * Durations are milliseconds.
 */
export interface RuntimeOptions {
  /**
   * How many orchestration dispatcher slots this runtime runs, as in duroxide-node. Each slot
   * runs one batch of up to `orchestrationBatchSize` turns at a time, side by side: a turn is
   * orchestration code replayed in this process and has no side effects of its own, so a batch
   * shares one fetch and one commit and each turn still commits or fails on its own. 0 makes a
   * worker-only node.
   * @default 4 (duroxide-node's)
   */
  readonly orchestrationConcurrency?: number;
  /**
   * The most instances one orchestration slot claims in one fetch, with a provider that claims
   * and commits batches (`fetchOrchestrationItems` and `ackOrchestrationItems`:
   * `InMemoryProvider`, `PostgresProvider`); other providers are served one turn per fetch. Set
   * 1 for duroxide's one turn per slot.
   * @default 8
   */
  readonly orchestrationBatchSize?: number;
  /**
   * The most activities this runtime runs at once, as in duroxide-node: however they were
   * claimed (a fetch of one, a batch fetch, activities its own turn commits hand over, a
   * redelivery), never more activity functions than this run at the same time. An activity
   * counts from the call of its function until the promise it returned settles, even when that
   * is after a cancellation it ignored. 0 makes an orchestration-only node.
   * @default 8 (duroxide-node's)
   */
  readonly workerConcurrency?: number;
  /**
   * The most activities one fetch claims, with a provider that claims batches (`fetchWorkItems`:
   * `InMemoryProvider`, `PostgresProvider`): a fetch asks for as many activities as there are
   * free places under `workerConcurrency`, but no more than this. It never raises
   * `workerConcurrency`. Set 1 for duroxide's one fetch per worker slot, each of one activity.
   * @default workerConcurrency
   */
  readonly workerBatchSize?: number;
  /**
   * Lets a batch of turns that schedules activities have them written already claimed for this
   * runtime's worker, in the round trip that commits the batch, when the worker has free places
   * for all of them: they then start without a fetch and without waking other workers, and
   * count against `workerConcurrency` like any other. Activities bound to a session, of tags the
   * worker does not take, or that do not all fit, are written for any worker to fetch. A claimed
   * activity carries its own lease, so it goes to another worker if this runtime dies. Used with
   * batched turns and batched activity fetches, on a provider that can claim so
   * (`InMemoryProvider`, `PostgresProvider` with duro migration 10).
   * @default true
   */
  readonly activityHandoff?: boolean;
  /** Least time between two polls of an idle dispatcher slot. @default 100 */
  readonly dispatcherPollIntervalMs?: number;
  /** How long a fetch may wait for work inside the provider (long poll). @default 30000 */
  readonly dispatcherLongPollTimeoutMs?: number;
  /** Lock on an instance during a turn; renewed while the turn runs. @default 5000 */
  readonly orchestratorLockTimeoutMs?: number;
  /** Renew the turn lock this long before it expires (locks of 15 s or more). @default 2000 */
  readonly orchestratorLockRenewalBufferMs?: number;
  /** Lock on an activity while it runs; renewed until it finishes. @default 30000 */
  readonly workerLockTimeoutMs?: number;
  /** Renew the activity lock this long before it expires (locks of 15 s or more). @default 5000 */
  readonly workerLockRenewalBufferMs?: number;
  /** Deliveries of one message before it is poisoned. @default 10 */
  readonly maxAttempts?: number;
  /** How long a cancelled activity may keep running before its result is discarded. @default 10000 */
  readonly activityCancellationGracePeriodMs?: number;
  /** Backoff of unregistered orchestrations and activities: base·2^(attempt−1), capped. */
  readonly unregisteredBackoff?: {
    /** The first delay, ms. @default 1000 */
    readonly baseDelayMs?: number;
    /** The longest delay, ms. @default 60000 */
    readonly maxDelayMs?: number;
  };
  /** Duroxide versions whose executions this runtime replays. @default { min: '0.0.0', max: '0.1.32' } */
  readonly supportedReplayVersions?: {
    /** The lowest duroxide version replayed, semver. */
    readonly min: string;
    /** The highest duroxide version replayed, semver. */
    readonly max: string;
  };
  /** Lock on a claimed session. @default 30000 */
  readonly sessionLockTimeoutMs?: number;
  /** @default 5000 */
  readonly sessionLockRenewalBufferMs?: number;
  /** A session without activity for this long is released. @default 300000 */
  readonly sessionIdleTimeoutMs?: number;
  /** How often expired sessions are swept. @default 300000 */
  readonly sessionCleanupIntervalMs?: number;
  /** Most distinct sessions this runtime serves at once. @default 10 */
  readonly maxSessionsPerRuntime?: number;
  /** A stable identity for session ownership across restarts (pod name); default per slot. */
  readonly workerNodeId?: string;
  /** @default 'defaultOnly' */
  readonly workerTagFilter?: TagFilterOption;
  /**
   * The tags of `workerTagFilter: 'tags'` or `'defaultAnd'` (duroxide-node's flat form); not
   * allowed with the other filters.
   */
  readonly workerTagFilterTags?: readonly string[];
  /**
   * The lowest level the built-in pino logger writes (to standard error), or `'silent'`.
   * `'trace'` writes everything. Ignored after `initTracing`.
   * @default 'info'
   */
  readonly logLevel?: LogLevel | 'trace' | 'silent';
  /**
   * How the built-in logger writes lines (see {@link LogFormat}). Ignored after `initTracing`.
   * @default 'json'
   */
  readonly logFormat?: LogFormat;
  /** The `name` field of the built-in logger's lines, naming this service. @default 'duro' */
  readonly serviceName?: string;
  /** Added to the built-in logger's lines as `serviceVersion`. */
  readonly serviceVersion?: string;
  /**
   * Where log lines and orchestration traces go, replacing the built-in logger: a `pino` logger
   * (its `child` binds instance, execution and lock token to the lines of each work item) or
   * any {@link Logger}.
   */
  readonly logger?: Logger;
  /**
   * Where the runtime's OpenTelemetry metrics go. @default the global meter provider of
   * `@opentelemetry/api` at construction time (a no-op until the application registers an SDK)
   */
  readonly meterProvider?: MeterProvider;
  /**
   * Where the runtime's OpenTelemetry spans go. @default the global tracer provider of
   * `@opentelemetry/api` (a no-op until the application registers an SDK)
   */
  readonly tracerProvider?: TracerProvider;
}

/** Options with every default applied. @internal */
export interface ResolvedRuntimeOptions {
  readonly orchestrationConcurrency: number;
  readonly orchestrationBatchSize: number;
  readonly workerConcurrency: number;
  readonly workerBatchSize: number;
  readonly activityHandoff: boolean;
  readonly dispatcherPollIntervalMs: number;
  readonly dispatcherLongPollTimeoutMs: number;
  readonly orchestratorLockTimeoutMs: number;
  readonly orchestratorLockRenewalBufferMs: number;
  readonly workerLockTimeoutMs: number;
  readonly workerLockRenewalBufferMs: number;
  readonly maxAttempts: number;
  readonly activityCancellationGracePeriodMs: number;
  readonly unregisteredBackoff: { readonly baseDelayMs: number; readonly maxDelayMs: number };
  readonly supportedReplayVersions: SemverRange;
  readonly sessionLockTimeoutMs: number;
  readonly sessionLockRenewalBufferMs: number;
  readonly sessionIdleTimeoutMs: number;
  readonly sessionCleanupIntervalMs: number;
  readonly maxSessionsPerRuntime: number;
  readonly workerNodeId: string | null;
  readonly workerTagFilter: TagFilter;
  readonly logger: Logger;
  readonly meterProvider: MeterProvider;
  readonly tracerProvider: TracerProvider;
}

function count(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(
      `RuntimeOptions.${name} must be an integer >= ${min}, got ${String(value)}`,
    );
  }
  return value;
}

function flag(name: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new TypeError(`RuntimeOptions.${name} must be true or false, got ${String(value)}`);
  }
  return value;
}

function duration(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(
      `RuntimeOptions.${name} must be a finite number of milliseconds >= 0, got ${String(value)}`,
    );
  }
  return value;
}

function tagFilter(
  option: TagFilterOption | undefined,
  tags: readonly string[] | undefined,
): TagFilter {
  const takesTags = option === 'tags' || option === 'defaultAnd';
  if (tags !== undefined && !takesTags) {
    throw new RangeError(
      `RuntimeOptions.workerTagFilterTags needs workerTagFilter 'tags' or 'defaultAnd', got ${JSON.stringify(option)}`,
    );
  }
  if (takesTags && tags === undefined) {
    throw new RangeError(
      `RuntimeOptions.workerTagFilter '${option}' needs the tags in workerTagFilterTags`,
    );
  }
  if (option === 'tags') return TagFilter.tags(tags ?? []);
  if (option === 'defaultAnd') return TagFilter.defaultAnd(tags ?? []);
  if (option === undefined || option === 'defaultOnly') return TagFilter.defaultOnly();
  if (option === 'any') return TagFilter.any();
  if (option === 'none') return TagFilter.none();
  if ('tags' in option) return TagFilter.tags(option.tags);
  if ('defaultAnd' in option) return TagFilter.defaultAnd(option.defaultAnd);
  throw new RangeError(
    `RuntimeOptions.workerTagFilter is not a tag filter: ${JSON.stringify(option)}`,
  );
}

/**
 * Applies defaults and checks every option.
 * @throws {RangeError} naming the option that is out of range, or when the session idle timeout
 *   is not longer than the activity lock renewal interval (sessions would unpin mid-activity).
 * @internal
 */
export function resolveRuntimeOptions(options: RuntimeOptions = {}): ResolvedRuntimeOptions {
  const workerLockTimeoutMs = duration('workerLockTimeoutMs', options.workerLockTimeoutMs, 30_000);
  const workerLockRenewalBufferMs = duration(
    'workerLockRenewalBufferMs',
    options.workerLockRenewalBufferMs,
    5_000,
  );
  const sessionIdleTimeoutMs = duration(
    'sessionIdleTimeoutMs',
    options.sessionIdleTimeoutMs,
    300_000,
  );
  const renewalMs = Math.max(workerLockTimeoutMs - workerLockRenewalBufferMs, 1_000);
  if (sessionIdleTimeoutMs <= renewalMs) {
    throw new RangeError(
      `sessionIdleTimeoutMs (${sessionIdleTimeoutMs}) must be greater than the worker lock renewal interval (${renewalMs}): sessions would unpin during long-running activities; raise sessionIdleTimeoutMs or lower workerLockTimeoutMs`,
    );
  }
  const replay = options.supportedReplayVersions;
  const workerConcurrency = count('workerConcurrency', options.workerConcurrency, 8, 0);
  return {
    orchestrationConcurrency: count(
      'orchestrationConcurrency',
      options.orchestrationConcurrency,
      4,
      0,
    ),
    orchestrationBatchSize: count('orchestrationBatchSize', options.orchestrationBatchSize, 8, 1),
    workerConcurrency,
    workerBatchSize: count(
      'workerBatchSize',
      options.workerBatchSize,
      Math.max(workerConcurrency, 1),
      1,
    ),
    activityHandoff: flag('activityHandoff', options.activityHandoff, true),
    dispatcherPollIntervalMs: duration(
      'dispatcherPollIntervalMs',
      options.dispatcherPollIntervalMs,
      100,
    ),
    dispatcherLongPollTimeoutMs: duration(
      'dispatcherLongPollTimeoutMs',
      options.dispatcherLongPollTimeoutMs,
      30_000,
    ),
    orchestratorLockTimeoutMs: duration(
      'orchestratorLockTimeoutMs',
      options.orchestratorLockTimeoutMs,
      5_000,
    ),
    orchestratorLockRenewalBufferMs: duration(
      'orchestratorLockRenewalBufferMs',
      options.orchestratorLockRenewalBufferMs,
      2_000,
    ),
    workerLockTimeoutMs,
    workerLockRenewalBufferMs,
    maxAttempts: count('maxAttempts', options.maxAttempts, 10, 1),
    activityCancellationGracePeriodMs: duration(
      'activityCancellationGracePeriodMs',
      options.activityCancellationGracePeriodMs,
      10_000,
    ),
    unregisteredBackoff: {
      baseDelayMs: duration(
        'unregisteredBackoff.baseDelayMs',
        options.unregisteredBackoff?.baseDelayMs,
        1_000,
      ),
      maxDelayMs: duration(
        'unregisteredBackoff.maxDelayMs',
        options.unregisteredBackoff?.maxDelayMs,
        60_000,
      ),
    },
    supportedReplayVersions: replay
      ? { min: parseSemver(replay.min), max: parseSemver(replay.max) }
      : { min: parseSemver('0.0.0'), max: DUROXIDE_SEMVER },
    sessionLockTimeoutMs: duration('sessionLockTimeoutMs', options.sessionLockTimeoutMs, 30_000),
    sessionLockRenewalBufferMs: duration(
      'sessionLockRenewalBufferMs',
      options.sessionLockRenewalBufferMs,
      5_000,
    ),
    sessionIdleTimeoutMs,
    sessionCleanupIntervalMs: duration(
      'sessionCleanupIntervalMs',
      options.sessionCleanupIntervalMs,
      300_000,
    ),
    maxSessionsPerRuntime: count('maxSessionsPerRuntime', options.maxSessionsPerRuntime, 10, 1),
    workerNodeId: options.workerNodeId ?? null,
    workerTagFilter: tagFilter(options.workerTagFilter, options.workerTagFilterTags),
    logger:
      options.logger ??
      tracingLogger() ??
      createDefaultLogger(options.logLevel ?? 'info', {
        ...(options.logFormat !== undefined ? { format: options.logFormat } : {}),
        ...(options.serviceName !== undefined ? { serviceName: options.serviceName } : {}),
        ...(options.serviceVersion !== undefined ? { serviceVersion: options.serviceVersion } : {}),
      }),
    meterProvider: options.meterProvider ?? metrics.getMeterProvider(),
    tracerProvider: options.tracerProvider ?? trace.getTracerProvider(),
  };
}

/** Delay before retrying an unregistered handler: base·2^(attempt−1), exponent ≤ 6, capped. @internal */
export function unregisteredBackoffMs(
  options: ResolvedRuntimeOptions,
  attemptCount: number,
): number {
  const exponent = Math.min(Math.max(attemptCount - 1, 0), 6);
  return Math.min(
    options.unregisteredBackoff.baseDelayMs * 2 ** exponent,
    options.unregisteredBackoff.maxDelayMs,
  );
}

/**
 * How often a lock is renewed: `timeout − buffer` (at least 1 s) for locks of 15 s or more,
 * else half the timeout rounded up to whole seconds, as duroxide. Locks under 2 s renew at half
 * their timeout (duroxide's 1 s floor would let them expire first).
 */
export function renewalIntervalMs(lockTimeoutMs: number, bufferMs: number): number {
  if (lockTimeoutMs >= 15_000)
    return Math.max(lockTimeoutMs - Math.min(bufferMs, lockTimeoutMs), 1_000);
  if (lockTimeoutMs < 2_000) return Math.max(lockTimeoutMs / 2, 1);
  return Math.ceil(lockTimeoutMs / 2 / 1000) * 1000;
}
