import type { ChaosContext, FaultOutcome } from './chaos-context.js';

/**
 * Restarts every worker, one after the other, with a graceful drain (`runtime.shutdown`), as a
 * deployment rollout would; the next worker goes only once the previous one runs again.
 */
export async function rollingRestart(context: ChaosContext): Promise<FaultOutcome> {
  const atMs = Date.now();
  const { shutdownTimeoutMs } = context.config.runtime;
  let restarted = 0;
  const drainTimes: number[] = [];
  for (const slot of context.fleet.slots) {
    if (slot.state !== 'running') continue;
    const started = Date.now();
    await context.fleet.restartGracefully(slot, shutdownTimeoutMs + 5_000);
    drainTimes.push(Date.now() - started);
    restarted += 1;
  }
  return {
    kind: 'rolling-restart',
    injected: restarted > 0,
    target: `${restarted} worker(s)`,
    atMs,
    detail: `drain and restart took ${drainTimes.join('/')} ms`,
  };
}
