import type { MetricsSnapshot, Provider } from '@duro/core';
import type { WorkerRuntimeConfig } from '../swarm-config.js';
import type { WorkerLaunch } from './ipc-messages.js';

/** What an engine reports about its current life. */
export interface EngineStats {
  readonly metrics: MetricsSnapshot;
  /** Turn activities running right now (chaos kills a worker that has some). */
  readonly turnsInFlight: number;
}

/** The runtime a worker process hosts: duro's, or the Rust duroxide runtime. */
export interface WorkerEngine {
  stats(): Promise<EngineStats>;
  /** Stops taking work and waits up to `timeoutMs` for what is in flight. */
  shutdown(timeoutMs: number): Promise<void>;
}

/**
 * Starts an engine serving the session workload on `provider` (the observed provider of the
 * worker), calling `onContinueAsNewSoon` when a session's last turn before continue-as-new runs.
 */
export type StartEngine = (
  provider: Provider,
  launch: WorkerLaunch,
  onContinueAsNewSoon: (session: string) => void,
) => Promise<WorkerEngine>;

/** The settings both runtimes take from a worker's configuration, under the same names. */
export type EngineSettings = Omit<
  WorkerRuntimeConfig,
  'poolSize' | 'idlePollIntervalMs' | 'shutdownTimeoutMs'
>;

/** Picks {@link EngineSettings} out of a worker's configuration. */
export function engineSettings(config: WorkerRuntimeConfig): EngineSettings {
  const {
    poolSize: _poolSize,
    idlePollIntervalMs: _idlePollIntervalMs,
    shutdownTimeoutMs: _shutdownTimeoutMs,
    ...settings
  } = config;
  return settings;
}
