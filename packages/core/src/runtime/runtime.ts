import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Provider } from '../provider/provider.js';
import { OrchestrationDispatcher } from './dispatch/orchestration-dispatcher.js';
import { OrchestrationIdentities } from './turn/orchestration-identities.js';
import { SingleTurnCommits } from './turn/turn-commit.js';
import { WorkerDispatcher } from './dispatch/worker-dispatcher.js';
import {
  ActivityRegistry,
  DEFAULT_VERSION,
  OrchestrationRegistry,
  type ActivityFunction,
} from './registry.js';
import type { OrchestrationFunction } from './replay/replay-engine.js';
import { countingProviderErrors } from './provider-error-counting.js';
import { observeQueueDepths } from './queue-depth-gauges.js';
import { RuntimeMetrics, type MetricsSnapshot } from './runtime-metrics.js';
import { RuntimeTracing } from './runtime-tracing.js';
import {
  resolveRuntimeOptions,
  type ResolvedRuntimeOptions,
  type RuntimeOptions,
} from './runtime-options.js';

/** The OpenTelemetry instrumentation scope of the runtime's meter and tracer. */
const INSTRUMENTATION_SCOPE = '@duro/core';

/** The longest interval a timer takes; the keep-alive timer never needs to fire. */
const KEEP_ALIVE_INTERVAL_MS = 2 ** 31 - 1;

/** Default budget of {@link Runtime.shutdown}, in milliseconds (duroxide's). */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 1_000;

/**
 * Runs orchestrations and activities from a store, with duroxide-node's `Runtime` surface:
 * register handlers, `start()`, and `shutdown()`.
 *
 * @example
 * ```ts
 * const runtime = new Runtime(provider, { orchestrationConcurrency: 2 });
 * runtime.registerActivity('Hello', async (ctx, name: string) => `Hello, ${name}!`);
 * runtime.registerOrchestration('Greet', function* (ctx, name: string) {
 *   return yield* ctx.scheduleActivity<string>('Hello', name);
 * });
 * await runtime.start();
 * ```
 */
export class Runtime {
  private readonly options: ResolvedRuntimeOptions;
  private readonly orchestrations = new OrchestrationRegistry();
  private readonly activities = new ActivityRegistry();
  private readonly metrics: RuntimeMetrics;
  private readonly tracing: RuntimeTracing;
  private stopObservingQueues: () => void = () => undefined;
  private readonly stragglers = new Set<Promise<unknown>>();
  /** Names the runtime's workers and, without `workerNodeId`, owns its sessions. */
  private readonly runtimeId = randomBytes(4).toString('hex');
  private readonly stopController = new AbortController();
  private readonly haltController = new AbortController();
  private loops: Promise<void>[] | null = null;
  /**
   * Keeps the process alive from `start()` until `shutdown()` has finished, whatever the provider
   * waits on: providers may let their idle connections and long polls go unreferenced, so that a
   * program ends once its runtime has shut down.
   */
  private keepAlive: NodeJS.Timeout | null = null;
  /** The store, as the runtime calls it: its failures are counted in the metrics. */
  private readonly provider: Provider;

  /**
   * @throws {RangeError} naming an option that is out of range.
   */
  constructor(provider: Provider, options?: RuntimeOptions) {
    this.options = resolveRuntimeOptions(options);
    this.metrics = new RuntimeMetrics(this.options.meterProvider.getMeter(INSTRUMENTATION_SCOPE));
    this.tracing = new RuntimeTracing(this.options.tracerProvider.getTracer(INSTRUMENTATION_SCOPE));
    this.provider = countingProviderErrors(provider, this.metrics);
  }

  /**
   * Registers an activity under `name`.
   * @throws {Error} when the name is taken or uses the reserved `__duroxide_syscall:` prefix.
   */
  registerActivity<In = unknown, Out = unknown>(
    name: string,
    handler: ActivityFunction<In, Out>,
  ): this {
    this.assertNotStarted('registerActivity');
    this.activities.register(name, handler as ActivityFunction);
    return this;
  }

  /** Registers an orchestration as version 1.0.0. */
  registerOrchestration<In = unknown, Out = unknown>(
    name: string,
    handler: OrchestrationFunction<In, Out>,
  ): this {
    return this.registerOrchestrationVersioned(name, DEFAULT_VERSION, handler);
  }

  /**
   * Registers one version of an orchestration; new instances run the latest version.
   * @throws {Error} when `name@version` is taken or `version` is not later than the latest.
   */
  registerOrchestrationVersioned<In = unknown, Out = unknown>(
    name: string,
    version: string,
    handler: OrchestrationFunction<In, Out>,
  ): this {
    this.assertNotStarted('registerOrchestrationVersioned');
    this.orchestrations.register(name, version, handler as OrchestrationFunction);
    return this;
  }

  /** The same as `registerActivity` (duroxide-node's typed alias). */
  registerActivityTyped<In = unknown, Out = unknown>(
    name: string,
    handler: ActivityFunction<In, Out>,
  ): this {
    return this.registerActivity(name, handler);
  }

  /** The same as `registerOrchestration` (duroxide-node's typed alias). */
  registerOrchestrationTyped<In = unknown, Out = unknown>(
    name: string,
    handler: OrchestrationFunction<In, Out>,
  ): this {
    return this.registerOrchestration(name, handler);
  }

  /** The same as `registerOrchestrationVersioned` (duroxide-node's typed alias). */
  registerOrchestrationVersionedTyped<In = unknown, Out = unknown>(
    name: string,
    version: string,
    handler: OrchestrationFunction<In, Out>,
  ): this {
    return this.registerOrchestrationVersioned(name, version, handler);
  }

  /**
   * Starts the dispatchers and returns at once.
   * @throws {Error} when already started.
   */
  async start(): Promise<void> {
    this.assertNotStarted('start');
    this.keepAlive = setInterval(() => undefined, KEEP_ALIVE_INTERVAL_MS);
    const { logger } = this.options;
    const stop = this.stopController.signal;
    // Every dispatcher slot listens on the stop signal.
    setMaxListeners(0, stop, this.haltController.signal);
    const identities = new OrchestrationIdentities(this.provider);
    const workers = new WorkerDispatcher(
      {
        provider: this.provider,
        options: this.options,
        activities: this.activities,
        logger,
        metrics: this.metrics,
        tracing: this.tracing,
        stragglers: this.stragglers,
        halt: this.haltController.signal,
        identities,
      },
      this.runtimeId,
      stop,
    );
    const turns = new OrchestrationDispatcher(
      {
        provider: this.provider,
        options: this.options,
        orchestrations: this.orchestrations,
        logger,
        metrics: this.metrics,
        tracing: this.tracing,
        commits: new SingleTurnCommits(this.provider),
      },
      identities,
      stop,
      this.options.activityHandoff ? workers : null,
    );
    this.loops = [...turns.run(), ...workers.run()];
    this.stopObservingQueues = observeQueueDepths(
      this.options.meterProvider.getMeter(INSTRUMENTATION_SCOPE),
      this.provider,
      logger,
    );
    logger.info(
      {
        runtimeId: this.runtimeId,
      },
      `duro runtime starting with provider ${this.provider.name} (${this.provider.version})`,
    );
  }

  /**
   * Stops fetching new work and waits for turns and activities in flight, returning as soon as
   * they are done (not after the whole budget). Activities still running after `timeoutMs` see
   * their `signal` fire and give their locks back (no attempt counted), so another runtime runs
   * them; their late results are discarded.
   * @param timeoutMs budget in milliseconds. @default 1000
   */
  async shutdown(timeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS): Promise<void> {
    this.stopController.abort();
    this.stopObservingQueues();
    const loops = this.loops ?? [];
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    const drained = Promise.allSettled([...loops, ...this.stragglers]).then(() => true);
    try {
      if (await Promise.race([drained, budget.then(() => false)])) return;
      this.haltController.abort();
      // Halted activities give their locks back at once; a turn in flight finishes its ack.
      await Promise.race([Promise.allSettled(loops), sleep(timeoutMs, undefined, { ref: false })]);
    } finally {
      clearTimeout(timer);
      clearInterval(this.keepAlive ?? undefined);
    }
  }

  /**
   * Counters of what this runtime did since it started. The same events reach OpenTelemetry
   * (metric names in the package README) when the application installed an SDK.
   */
  metricsSnapshot(): MetricsSnapshot {
    return this.metrics.snapshot();
  }

  private assertNotStarted(operation: string): void {
    if (this.loops !== null || this.stopController.signal.aborted) {
      throw new Error(`Runtime.${operation}() must be called before start()`);
    }
  }
}
