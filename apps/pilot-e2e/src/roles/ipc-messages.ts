import type { MetricsSnapshot } from '@duro/core';
import type { AuditQueue } from '../observe/audit-records.js';
import type { LeaseFigures } from '../observe/lease-stats.js';
import type { WorkerRuntimeConfig } from '../swarm-config.js';

/** Environment variable that carries a worker's {@link WorkerLaunch} as JSON. */
export const WORKER_LAUNCH_ENV = 'PILOT_E2E_WORKER';

/** Which runtime a worker process hosts: duro's, or the Rust duroxide runtime of `@duro/native`. */
export type EngineKind = 'duro' | 'rust';

/** Everything a worker process needs to start. */
export interface WorkerLaunch {
  /** Stable across restarts: the runtime's `workerNodeId` and the pool's application name. */
  readonly nodeId: string;
  readonly engine: EngineKind;
  readonly databaseUrl: string;
  readonly schema: string;
  readonly auditSchema: string;
  readonly runtime: WorkerRuntimeConfig;
}

/** The PostgreSQL application name of a worker's provider pool (chaos cuts these). */
export function workerApplicationName(nodeId: string): string {
  return `pilot-${nodeId}`;
}

/** What a worker has done in its current life. */
export interface WorkerStats {
  readonly metrics: MetricsSnapshot;
  readonly leases: Readonly<Record<AuditQueue, LeaseFigures>>;
  readonly turnsInFlight: number;
  /** Instances whose orchestration items it fetched since its previous report. */
  readonly newInstances: readonly string[];
  /** Claims and records its observer could not write to the audit log. */
  readonly unobserved: number;
}

/** Messages from a worker to the coordinator. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'stats'; readonly stats: WorkerStats }
  | { readonly type: 'continue-as-new-soon'; readonly session: string }
  | { readonly type: 'dying-mid-ack'; readonly queue: AuditQueue }
  | { readonly type: 'drained'; readonly stats: WorkerStats };

/** Messages from the coordinator to a worker. */
export type CoordinatorMessage =
  /** Shut the runtime down gracefully and exit. */
  | { readonly type: 'drain' }
  /** SIGKILL yourself while the next acknowledgement is on the wire. */
  | { readonly type: 'arm-ack-kill' }
  | { readonly type: 'disarm-ack-kill' };
