import { setTimeout as sleep } from 'node:timers/promises';
import { pickRunning, type ChaosContext, type FaultOutcome } from './chaos-context.js';

/**
 * SIGSTOPs a worker for longer than the orchestration lock timeout, then SIGCONTs it: its locks
 * run out while it is stopped, other workers take its instances over, and when it wakes up its
 * stale turns must fail to commit rather than corrupt anything.
 */
export async function freezeWorker(context: ChaosContext): Promise<FaultOutcome> {
  const atMs = Date.now();
  const slot = pickRunning(context);
  if (slot === undefined) {
    return { kind: 'freeze', injected: false, target: '-', atMs, detail: 'no worker running' };
  }
  const { runtime } = context.config;
  const { freezeOvershootMs } = context.config.chaos;
  const frozenMs =
    Math.max(runtime.orchestratorLockTimeoutMs, runtime.workerLockTimeoutMs) + freezeOvershootMs;
  slot.state = 'frozen';
  const fromMs = Date.now();
  slot.signal('SIGSTOP');
  await sleep(frozenMs);
  slot.signal('SIGCONT');
  const toMs = Date.now();
  if (slot.state === 'frozen') slot.state = 'running';
  context.freezes.push({ worker: slot.nodeId, fromMs, toMs });
  return {
    kind: 'freeze',
    injected: true,
    target: slot.nodeId,
    atMs,
    detail: `SIGSTOP for ${toMs - fromMs} ms`,
  };
}
