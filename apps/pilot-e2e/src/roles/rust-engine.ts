import type { MetricsSnapshot } from '@duro/core';
import { startRustSwarmWorker, toWireProvider, type RustSwarmWorkerStats } from '@duro/native';
import { engineSettings, type StartEngine } from './worker-engine.js';

/** How often the host collects the sessions the Rust turns announced as about to continue. */
const ANNOUNCEMENT_POLL_MS = 5;

/**
 * The Rust runtime's counters under duro's names. Turns and successful activities are counted
 * by the worker itself (duroxide counts no turns, and each activity success twice); what
 * duroxide does not count is 0.
 */
function asMetrics(stats: RustSwarmWorkerStats): MetricsSnapshot {
  return {
    orchStarts: stats.orchStarts,
    orchCompletions: stats.orchCompletions,
    orchFailures: stats.orchFailures,
    orchApplicationErrors: stats.orchApplicationErrors,
    orchInfrastructureErrors: stats.orchInfrastructureErrors,
    orchConfigurationErrors: stats.orchConfigurationErrors,
    orchPoison: stats.orchPoison,
    orchPoisonFailed: 0,
    orchContinueAsNew: stats.orchContinueAsNew,
    orchTurns: stats.orchestrationTurns,
    orchAckFailures: 0,
    orchLockSteals: 0,
    orchDispatcherItemsFetched: stats.orchDispatcherItemsFetched,
    activitySuccess: stats.activitiesSucceeded,
    activityAppErrors: stats.activityAppErrors,
    activityInfraErrors: stats.activityInfraErrors,
    activityConfigErrors: stats.activityConfigErrors,
    activityPoison: stats.activityPoison,
    activityPoisonFailed: 0,
    activityCancelled: 0,
    activityAckFailures: 0,
    activityLockSteals: 0,
    workerDispatcherItemsFetched: stats.workerDispatcherItemsFetched,
    suborchestrationCalls: stats.suborchestrationCalls,
    providerErrors: stats.providerErrors,
  };
}

/**
 * The Rust duroxide runtime of `@duro/native` serving the session workload over the worker's
 * observed duro provider, so its every fetch and acknowledgement feeds the same invariants as
 * a duro worker's.
 */
export const startRustEngine: StartEngine = async (provider, launch, onContinueAsNewSoon) => {
  const worker = await startRustSwarmWorker(toWireProvider(provider), {
    ...engineSettings(launch.runtime),
    workerNodeId: launch.nodeId,
  });
  const announcements = setInterval(() => {
    for (const session of worker.takeContinueAsNewSoon()) onContinueAsNewSoon(session);
  }, ANNOUNCEMENT_POLL_MS);
  return {
    stats: async () => {
      const stats = await worker.stats();
      return { metrics: asMetrics(stats), turnsInFlight: stats.turnsInFlight };
    },
    shutdown: async (timeoutMs) => {
      clearInterval(announcements);
      await worker.stop(timeoutMs);
    },
  };
};
