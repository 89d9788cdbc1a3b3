import { Runtime } from '@duro/core';
import { registerSessionWorkload } from '../workload/activities.js';
import { engineSettings, type StartEngine } from './worker-engine.js';

/** A duro `Runtime` serving the session workload. */
export const startDuroEngine: StartEngine = async (provider, launch, onContinueAsNewSoon) => {
  const runtime = new Runtime(provider, {
    ...engineSettings(launch.runtime),
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
