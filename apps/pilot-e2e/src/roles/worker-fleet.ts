import type { MetricsSnapshot } from '@duro/core';
import type { RuntimeClaimCounts } from '../invariants/claims-observed.js';
import type { WorkerLife } from '../invariants/claim-holds.js';
import type { AuditQueue } from '../observe/audit-records.js';
import { mergeLeaseFigures, type LeaseFigures } from '../observe/lease-stats.js';
import type { EngineKind, WorkerLaunch, WorkerMessage } from './ipc-messages.js';
import { sumMetrics } from './metrics-sum.js';
import { WorkerSlot } from './worker-slot.js';

/** What the fleet tells the rest of the coordinator. */
export interface FleetEvents {
  /** A session's last turn before continue-as-new is running on some worker. */
  readonly onContinueAsNewSoon: (schema: string, session: string) => void;
  /** A worker restart failed; the run cannot go on as planned. */
  readonly onRestartFailed: (nodeId: string, error: Error) => void;
}

/** What the workers of one engine did, all their lives together. */
export interface EngineTotals {
  readonly workers: number;
  readonly orchestrationTurns: number;
  readonly activities: number;
  readonly continueAsNew: number;
  /** Instances (per schema) whose orchestration items these workers fetched. */
  readonly instances: number;
}

/** Fleet-wide figures for the progress display and the report. */
export interface FleetTotals {
  readonly restarts: number;
  readonly unexpectedExits: number;
  readonly metrics: MetricsSnapshot | null;
  readonly leases: Record<AuditQueue, LeaseFigures>;
  /** Per engine that has workers in the fleet. */
  readonly engines: Partial<Record<EngineKind, EngineTotals>>;
  /** Instances whose orchestration items both a duro and a Rust worker fetched. */
  readonly sharedInstances: number;
  /** What each worker's runtime counted it took up, all its lives together. */
  readonly runtimeCounts: RuntimeClaimCounts[];
  /** Claims and records the workers' observers could not write to the audit log. */
  readonly unobserved: number;
}

/** Starts of one slot after which the fleet stops restarting it (a worker that keeps dying). */
const MAX_LIVES = 100;

/**
 * Every worker process of the run. A worker that exits without being told to (killed by chaos,
 * or crashed) is started again after `restartDelayMs` with the same node id, as a pod would be.
 */
export class WorkerFleet {
  readonly slots: WorkerSlot[];
  private stopping = false;
  private unexpectedExits = 0;

  constructor(
    launches: readonly WorkerLaunch[],
    logDir: string,
    private readonly restartDelayMs: number,
    private readonly events: FleetEvents,
  ) {
    this.slots = launches.map(
      (launch) =>
        new WorkerSlot(
          launch,
          logDir,
          (slot, message) => this.handle(slot, message),
          (slot) => this.restartLater(slot),
        ),
    );
  }

  /** Starts every worker and waits until all run. */
  async start(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.start()));
  }

  /** Slots whose worker runs now, optionally only those of one schema. */
  running(schema?: string): WorkerSlot[] {
    return this.slots.filter(
      (slot) => slot.state === 'running' && (schema === undefined || slot.launch.schema === schema),
    );
  }

  /** Resolves when the slot's worker runs again (after a restart), or after `timeoutMs`. */
  async waitRunning(slot: WorkerSlot, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (slot.state !== 'running') {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return true;
  }

  /** Drains one worker and starts it again (one step of a rolling restart). */
  async restartGracefully(slot: WorkerSlot, drainTimeoutMs: number): Promise<void> {
    await slot.drain(drainTimeoutMs);
    await slot.start();
  }

  /** Drains every worker; the fleet restarts nothing afterwards. */
  async stop(drainTimeoutMs: number): Promise<void> {
    this.stopping = true;
    for (const slot of this.slots) if (slot.state === 'frozen') slot.signal('SIGCONT');
    await Promise.all(this.slots.map((slot) => slot.drain(drainTimeoutMs)));
    for (const slot of this.slots) slot.close();
  }

  totals(): FleetTotals {
    const all = this.slots.map((slot) => slot.totals());
    const metrics = sumMetrics(all.map((slot) => slot.metrics));
    const engines: Partial<Record<EngineKind, EngineTotals>> = {};
    const instancesOf = new Map<EngineKind, Set<string>>();
    for (const engine of new Set(this.slots.map((slot) => slot.launch.engine))) {
      const slots = this.slots.filter((slot) => slot.launch.engine === engine);
      const engineMetrics = sumMetrics(slots.map((slot) => slot.totals().metrics));
      const instances = new Set(
        slots.flatMap((slot) => [...slot.instances].map((id) => `${slot.launch.schema}/${id}`)),
      );
      instancesOf.set(engine, instances);
      engines[engine] = {
        workers: slots.length,
        orchestrationTurns: engineMetrics?.orchTurns ?? 0,
        activities: engineMetrics?.activitySuccess ?? 0,
        continueAsNew: engineMetrics?.orchContinueAsNew ?? 0,
        instances: instances.size,
      };
    }
    const rustInstances = instancesOf.get('rust') ?? new Set<string>();
    const duroInstances = [...(instancesOf.get('duro') ?? [])];
    return {
      restarts: this.slots.reduce((sum, slot) => sum + Math.max(slot.lives - 1, 0), 0),
      unexpectedExits: this.unexpectedExits,
      metrics,
      leases: {
        orchestrator: mergeLeaseFigures(all.map((slot) => slot.leases.orchestrator)),
        worker: mergeLeaseFigures(all.map((slot) => slot.leases.worker)),
      },
      engines,
      sharedInstances: duroInstances.filter((id) => rustInstances.has(id)).length,
      runtimeCounts: this.slots.map((slot, index) => ({
        worker: slot.nodeId,
        turns: all[index]?.metrics?.orchDispatcherItemsFetched ?? 0,
        activities: all[index]?.metrics?.workerDispatcherItemsFetched ?? 0,
      })),
      unobserved: all.reduce((sum, slot) => sum + slot.unobserved, 0),
    };
  }

  /** Every worker process the run started, with when it ran. */
  lives(): WorkerLife[] {
    return this.slots.flatMap((slot) => slot.lifeHistory());
  }

  private handle(slot: WorkerSlot, message: WorkerMessage): void {
    if (message.type === 'continue-as-new-soon') {
      this.events.onContinueAsNewSoon(slot.launch.schema, message.session);
    }
  }

  private restartLater(slot: WorkerSlot): void {
    this.unexpectedExits += 1;
    if (this.stopping) return;
    if (slot.lives >= MAX_LIVES) {
      this.events.onRestartFailed(slot.nodeId, new Error(`gave up after ${MAX_LIVES} starts`));
      return;
    }
    setTimeout(() => {
      if (this.stopping || slot.state !== 'down') return;
      slot.start().catch((error: unknown) => {
        this.events.onRestartFailed(
          slot.nodeId,
          error instanceof Error ? error : new Error(String(error)),
        );
      });
    }, this.restartDelayMs);
  }
}
