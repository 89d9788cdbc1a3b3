import type { MetricsSnapshot, Provider } from '@duro/core';
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
