import type { ChaosConfig, SwarmConfig, WorkloadConfig } from './swarm-config.js';

/** The names of the built-in runs. */
export type PresetName = 'smoke' | 'default' | 'soak' | 'chaos' | 'faults';

const RUNTIME: SwarmConfig['runtime'] = {
  // PilotSwarm's worker settings: 2 + 2 slots, 10 ms poll, short locks, stable node ids.
  orchestrationConcurrency: 2,
  workerConcurrency: 2,
  dispatcherPollIntervalMs: 10,
  orchestratorLockTimeoutMs: 3_000,
  workerLockTimeoutMs: 3_000,
  sessionLockTimeoutMs: 5_000,
  maxSessionsPerRuntime: 50,
  sessionIdleTimeoutMs: 10_000,
  poolSize: 6,
  // PostgresProvider's default.
  idlePollIntervalMs: 5_000,
  shutdownTimeoutMs: 5_000,
};

const WORKLOAD: WorkloadConfig = {
  messagesPerSession: [6, 14],
  maxBurst: 4,
  childrenPerSession: [0, 2],
  wideSessionShare: 0.05,
  manyChildren: 12,
  maxDepth: 2,
  updatesPerChild: [2, 5],
  turnMs: [5, 150],
  longTurnShare: 0.04,
  longTurnMs: 1_500,
  continueAsNewEvery: 10,
  idleTimerMs: 3_000,
  longTimerShare: 0.05,
  longTimerMs: 2_000,
};

const LIGHT_CHAOS: ChaosConfig = {
  enabled: true,
  killMidActivity: 1,
  killMidAck: 1,
  freezes: 1,
  freezeOvershootMs: 2_500,
  connectionDrops: 2,
  rollingRestarts: 0,
  serverRestarts: 0,
  serverDownMs: 500,
  restartDelayMs: 300,
};

const LIMITS: SwarmConfig['limits'] = {
  maxLockTokenAckFailuresPerMessage: 3,
  maxAttemptCount: 6,
  maxEventsPerExecution: 2_000,
  maxBytesPerExecution: 800 * 1024,
  claimAllowanceMs: 1_000,
};

const DEFAULT: SwarmConfig = {
  workers: 3,
  secondSchemaWorkers: 1,
  sessions: 40,
  secondSchemaSessions: 10,
  loadDurationMs: 45_000,
  settleTimeoutMs: 90_000,
  seed: 1,
  runtime: RUNTIME,
  workload: WORKLOAD,
  chaos: LIGHT_CHAOS,
  limits: LIMITS,
};

/**
 * The built-in runs, as data:
 * - `smoke`: the CI run, a few workers and a few dozen sessions under kills, a freeze and
 *   connection drops, bounded to a couple of minutes;
 * - `default`: what `pnpm start` runs, about a minute with light chaos;
 * - `soak`: 8 workers, 500 sessions, 10 minutes of load, wide sessions with tens of children;
 * - `chaos`: the default size with every fault several times, a rolling restart included;
 * - `faults`: over a hundred faults of every kind in five minutes of load, PostgreSQL crashed and
 *   restarted among them, on a server with production durability (the run's own embedded one).
 */
export const PRESETS: Readonly<Record<PresetName, SwarmConfig>> = {
  smoke: {
    ...DEFAULT,
    sessions: 24,
    secondSchemaSessions: 8,
    loadDurationMs: 40_000,
    chaos: { ...LIGHT_CHAOS, killMidActivity: 2, killMidAck: 1, freezes: 1, connectionDrops: 2 },
  },
  default: DEFAULT,
  soak: {
    ...DEFAULT,
    workers: 8,
    secondSchemaWorkers: 2,
    sessions: 500,
    secondSchemaSessions: 50,
    loadDurationMs: 600_000,
    settleTimeoutMs: 300_000,
    runtime: { ...RUNTIME, maxSessionsPerRuntime: 150 },
    // Long-lived sessions sit idle between prompts for longer, as PilotSwarm's do.
    workload: {
      ...WORKLOAD,
      messagesPerSession: [20, 40],
      manyChildren: 24,
      idleTimerMs: 15_000,
      longTimerMs: 5_000,
    },
    chaos: {
      ...LIGHT_CHAOS,
      killMidActivity: 8,
      killMidAck: 6,
      freezes: 4,
      connectionDrops: 10,
      rollingRestarts: 1,
    },
  },
  chaos: {
    ...DEFAULT,
    loadDurationMs: 60_000,
    settleTimeoutMs: 120_000,
    chaos: {
      ...LIGHT_CHAOS,
      killMidActivity: 4,
      killMidAck: 4,
      freezes: 3,
      connectionDrops: 6,
      rollingRestarts: 1,
    },
  },
  faults: {
    ...DEFAULT,
    workers: 4,
    sessions: 120,
    secondSchemaSessions: 30,
    loadDurationMs: 300_000,
    settleTimeoutMs: 240_000,
    workload: { ...WORKLOAD, messagesPerSession: [15, 30] },
    chaos: {
      ...LIGHT_CHAOS,
      // More than 100 of each run are injected: a few find no target in time and are skipped.
      killMidActivity: 34,
      killMidAck: 24,
      freezes: 14,
      connectionDrops: 30,
      rollingRestarts: 3,
      serverRestarts: 8,
    },
  },
};

/** Whether `name` is a built-in preset. */
export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}
