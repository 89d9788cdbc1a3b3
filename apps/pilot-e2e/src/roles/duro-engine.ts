import { Runtime } from '@duro/core';
import { registerSessionWorkload } from '../workload/activities.js';
import type { StartEngine } from './worker-engine.js';

/** A duro `Runtime` serving the session workload. */
export const startDuroEngine: StartEngine = async (provider, launch, onContinueAsNewSoon) => {
  const { runtime: options } = launch;
  const runtime = new Runtime(provider, {
    orchestrationConcurrency: options.orchestrationConcurrency,
    workerConcurrency: options.workerConcurrency,
    dispatcherPollIntervalMs: options.dispatcherPollIntervalMs,
    orchestratorLockTimeoutMs: options.orchestratorLockTimeoutMs,
    workerLockTimeoutMs: options.workerLockTimeoutMs,
    sessionLockTimeoutMs: options.sessionLockTimeoutMs,
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs,
    maxSessionsPerRuntime: options.maxSessionsPerRuntime,
    workerNodeId: launch.nodeId,
    logLevel: 'warn',
  });
  let turnsInFlight = 0;
  registerSessionWorkload(runtime, {
    onTurnStart: () => {
      turnsInFlight += 1;
    },
    onTurnEnd: () => {
      turnsInFlight -= 1;
    },
    onContinueAsNewSoon,
  });
  await runtime.start();
  return {
    stats: () => Promise.resolve({ metrics: runtime.metricsSnapshot(), turnsInFlight }),
    shutdown: (timeoutMs) => runtime.shutdown(timeoutMs),
  };
};
