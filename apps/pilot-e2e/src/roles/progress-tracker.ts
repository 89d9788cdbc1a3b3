import type { FaultOutcome } from '../chaos/chaos-context.js';
import type { ProgressDisplay } from '../report/progress.js';
import type { ClientLoad } from '../workload/client-load.js';
import type { SwarmDatabase } from './swarm-database.js';
import type { WorkerFleet } from './worker-fleet.js';

const REFRESH_MS = 1_000;

/** What the tracker reads. */
export interface ProgressSources {
  readonly db: SwarmDatabase;
  readonly fleet: WorkerFleet;
  readonly load: ClientLoad;
  readonly progress: ProgressDisplay;
  readonly schemas: readonly string[];
  readonly roots: number;
  readonly instances: number;
  readonly outcomes: readonly FaultOutcome[];
}

/** The running progress of a swarm, refreshed every second. */
export interface ProgressTracker {
  setPhase(phase: string): void;
  /** Instances that ended (Completed or Failed) at the last refresh, refreshed now. */
  finishedInstances(): Promise<number>;
  completedInstances(): number;
  stop(): void;
}

/** Starts refreshing the progress display from the database and the fleet. */
export function trackProgress(sources: ProgressSources): ProgressTracker {
  const startedAtMs = Date.now();
  let phase = 'starting sessions';
  let completed = 0;
  let failed = 0;
  let rootsDone = 0;
  let last = { atMs: startedAtMs, turns: 0, activities: 0 };
  let refreshing = false;

  async function refresh(): Promise<void> {
    let done = 0;
    let bad = 0;
    for (const schema of sources.schemas) {
      const counts = await sources.db.statusCounts(schema).catch(() => new Map<string, number>());
      done += counts.get('Completed') ?? 0;
      bad += counts.get('Failed') ?? 0;
    }
    completed = done;
    failed = bad;
    rootsDone = await countRootsDone();
  }

  async function countRootsDone(): Promise<number> {
    let count = 0;
    for (const schema of sources.schemas) {
      count += await sources.db.completedRoots(schema).catch(() => 0);
    }
    return count;
  }

  async function tick(): Promise<void> {
    if (refreshing) return;
    refreshing = true;
    try {
      await refresh();
      const totals = sources.fleet.totals();
      const now = Date.now();
      const turns = totals.metrics?.orchTurns ?? 0;
      const activities = totals.metrics?.activitySuccess ?? 0;
      const seconds = Math.max(now - last.atMs, 1) / 1000;
      const lastFault = sources.outcomes.at(-1);
      sources.progress.update({
        elapsedMs: now - startedAtMs,
        phase,
        rootsDone,
        roots: sources.roots,
        instancesDone: completed + failed,
        instances: sources.instances,
        failed,
        messagesSent: sources.load.figures().messagesSent,
        turnsPerSecond: Math.max(turns - last.turns, 0) / seconds,
        activitiesPerSecond: Math.max(activities - last.activities, 0) / seconds,
        workersRunning: sources.fleet.running().length,
        workers: sources.fleet.slots.length,
        restarts: totals.restarts,
        faults: sources.outcomes.filter((outcome) => outcome.injected).length,
        lastFault: lastFault === undefined ? '' : `${lastFault.kind} ${lastFault.target}`,
      });
      last = { atMs: now, turns, activities };
    } finally {
      refreshing = false;
    }
  }

  const timer = setInterval(() => void tick(), REFRESH_MS);
  return {
    setPhase(next) {
      phase = next;
    },
    async finishedInstances() {
      await refresh();
      return completed + failed;
    },
    completedInstances: () => completed,
    stop() {
      clearInterval(timer);
    },
  };
}
