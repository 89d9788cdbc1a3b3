/**
 * Everything one swarm run is made of. A preset (see `presets.ts`) is a complete `SwarmConfig`;
 * command-line flags override single fields. Durations are milliseconds.
 */
export interface SwarmConfig {
  /** Worker processes on the main schema. */
  readonly workers: number;
  /** Worker processes on the second schema, which runs at the same time in the same database. */
  readonly secondSchemaWorkers: number;
  /** Root sessions on the main schema. */
  readonly sessions: number;
  /** Root sessions on the second schema (they reuse the main schema's instance ids). */
  readonly secondSchemaSessions: number;
  /** How long clients keep sending messages; the run then waits for every session to finish. */
  readonly loadDurationMs: number;
  /** Longest wait for the swarm to settle after the load window before the run is failed. */
  readonly settleTimeoutMs: number;
  /** Seed of every random choice the coordinator and the sessions make. */
  readonly seed: number;
  readonly runtime: WorkerRuntimeConfig;
  readonly workload: WorkloadConfig;
  readonly chaos: ChaosConfig;
  readonly limits: InvariantLimits;
}

/** The runtime options every worker process uses (PilotSwarm's settings by default). */
export interface WorkerRuntimeConfig {
  readonly orchestrationConcurrency: number;
  readonly workerConcurrency: number;
  readonly dispatcherPollIntervalMs: number;
  readonly orchestratorLockTimeoutMs: number;
  readonly workerLockTimeoutMs: number;
  readonly sessionLockTimeoutMs: number;
  readonly maxSessionsPerRuntime: number;
  /** A session without activity for this long is unpinned from its worker. */
  readonly sessionIdleTimeoutMs: number;
  /** Connections of each worker's provider pool. */
  readonly poolSize: number;
  /**
   * The provider's safety-net poll of a queue with idle fetches (`PostgresProvider`'s option of
   * the same name): the longest an idle fetch takes to notice work that came without a
   * notification, such as an activity whose lease ran out.
   */
  readonly idlePollIntervalMs: number;
  /** Budget of `runtime.shutdown` when a worker drains. */
  readonly shutdownTimeoutMs: number;
}

/** The shape of the session workload. */
export interface WorkloadConfig {
  /** Client messages per root session: a random count in this range, then one `close`. */
  readonly messagesPerSession: readonly [min: number, max: number];
  /** Largest burst a client sends at once. */
  readonly maxBurst: number;
  /** Children per session at depth 0 and 1: a random count in this range. */
  readonly childrenPerSession: readonly [min: number, max: number];
  /** Share of root sessions (0..1) that get `manyChildren` children instead. */
  readonly wideSessionShare: number;
  /** Children of a wide session. */
  readonly manyChildren: number;
  /** Deepest child level (the root is depth 0). */
  readonly maxDepth: number;
  /** Updates a child sends to its parent before its final one. */
  readonly updatesPerChild: readonly [min: number, max: number];
  /** Length of a turn activity: a random value in this range. */
  readonly turnMs: readonly [min: number, max: number];
  /** Share of turns (0..1) that run long (`longTurnMs`). */
  readonly longTurnShare: number;
  readonly longTurnMs: number;
  /** Most loop iterations of one execution before continue-as-new (at least 1, at most 10). */
  readonly continueAsNewEvery: number;
  /** Idle timer a session races its dequeue against when it has nothing to do. */
  readonly idleTimerMs: number;
  /** Share of iterations (0..1) that wait on a long timer raced against the queue. */
  readonly longTimerShare: number;
  readonly longTimerMs: number;
}

/** Faults injected during the load window. Counts are totals per run. */
export interface ChaosConfig {
  readonly enabled: boolean;
  /** SIGKILL a worker while it runs a turn activity. */
  readonly killMidActivity: number;
  /** SIGKILL a worker while its acknowledgement is on the wire. */
  readonly killMidAck: number;
  /** SIGSTOP a worker for longer than the orchestration lock timeout, then SIGCONT it. */
  readonly freezes: number;
  /** How far past the orchestration lock timeout a freeze lasts. */
  readonly freezeOvershootMs: number;
  /** `pg_terminate_backend` every connection of one worker. */
  readonly connectionDrops: number;
  /** Rolling restarts of the whole fleet with a graceful drain (`runtime.shutdown`). */
  readonly rollingRestarts: number;
  /**
   * Crashes of the run's own PostgreSQL (immediate shutdown, then a start on the same data),
   * with the workers running. Needs the embedded server: not with `--database-url`.
   */
  readonly serverRestarts: number;
  /** How long the server stays down after a crash before it starts again. */
  readonly serverDownMs: number;
  /** Delay before the coordinator restarts a killed worker. */
  readonly restartDelayMs: number;
}

/** Bounds the invariants hold the run to. */
export interface InvariantLimits {
  /** Most acknowledgements of one message that may fail on an invalid lock token. */
  readonly maxLockTokenAckFailuresPerMessage: number;
  /** Highest delivery attempt any message may reach. */
  readonly maxAttemptCount: number;
  /** Most history events one execution may hold. */
  readonly maxEventsPerExecution: number;
  /** Most history bytes one execution may hold. */
  readonly maxBytesPerExecution: number;
  /**
   * Time allowed, on a busy machine, from a wake-up to the claim being sent (the wake-up's
   * delivery, a pooled connection, the event loop's lag), on top of the dispatcher poll
   * interval, in the bound of `no-stall`, ms.
   */
  readonly claimAllowanceMs: number;
}
