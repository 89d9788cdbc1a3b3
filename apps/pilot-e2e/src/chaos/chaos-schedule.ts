import { setTimeout as sleep } from 'node:timers/promises';
import type { ChaosConfig } from '../swarm-config.js';
import type { SeededRandom } from '../workload/seeded-random.js';
import type { ChaosContext, FaultKind, FaultOutcome } from './chaos-context.js';
import { dropConnections } from './drop-connections.js';
import { freezeWorker } from './freeze-worker.js';
import { killMidAck, killMidActivity } from './kill-worker.js';
import { restartServer } from './restart-server.js';
import { rollingRestart } from './rolling-restart.js';

const INJECT: Record<FaultKind, (context: ChaosContext) => Promise<FaultOutcome>> = {
  'kill-mid-activity': killMidActivity,
  'kill-mid-ack': killMidAck,
  freeze: freezeWorker,
  'connection-drop': dropConnections,
  'rolling-restart': rollingRestart,
  'server-restart': restartServer,
};

/** The faults of a run in a seeded random order. */
export function planFaults(chaos: ChaosConfig, random: SeededRandom): FaultKind[] {
  if (!chaos.enabled) return [];
  const faults: FaultKind[] = [
    ...Array<FaultKind>(chaos.killMidActivity).fill('kill-mid-activity'),
    ...Array<FaultKind>(chaos.killMidAck).fill('kill-mid-ack'),
    ...Array<FaultKind>(chaos.freezes).fill('freeze'),
    ...Array<FaultKind>(chaos.connectionDrops).fill('connection-drop'),
    ...Array<FaultKind>(chaos.rollingRestarts).fill('rolling-restart'),
    ...Array<FaultKind>(chaos.serverRestarts).fill('server-restart'),
  ];
  for (let index = faults.length - 1; index > 0; index -= 1) {
    const other = random.between(0, index);
    [faults[index], faults[other]] = [faults[other] as FaultKind, faults[index] as FaultKind];
  }
  return faults;
}

/**
 * Injects `faults` one at a time, spread evenly over the middle of the load window (from 10 %
 * to 80 % of it), so that every fault lands while sessions are busy and the swarm has time to
 * recover before the load ends. Faults 1, 3, 5, … go to `context.favoured` workers when one is a
 * candidate. Stops early when `signal` aborts.
 */
export async function runChaos(
  context: ChaosContext,
  faults: readonly FaultKind[],
  loadStartMs: number,
  loadDurationMs: number,
  signal: AbortSignal,
  onOutcome: (outcome: FaultOutcome) => void,
): Promise<void> {
  const first = loadStartMs + loadDurationMs * 0.1;
  const span = loadDurationMs * 0.7;
  for (const [index, kind] of faults.entries()) {
    const due = first + (faults.length === 1 ? 0 : (span * index) / (faults.length - 1));
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return;
    const favoured = index % 2 === 0 ? context.favoured : undefined;
    try {
      onOutcome(await INJECT[kind]({ ...context, favoured }));
    } catch (error) {
      onOutcome({
        kind,
        injected: false,
        target: '-',
        atMs: Date.now(),
        detail: `failed: ${String(error)}`,
      });
    }
  }
}
