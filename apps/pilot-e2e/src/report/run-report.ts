import type { MetricsSnapshot } from '@duro/core';
import type { FaultOutcome } from '../chaos/chaos-context.js';
import type { InvariantResult } from '../invariants/invariant-result.js';
import type { LeaseFigures } from '../observe/lease-stats.js';
import type { EngineKind } from '../roles/ipc-messages.js';
import type { EngineTotals } from '../roles/worker-fleet.js';
import type { SwarmConfig } from '../swarm-config.js';
import type { ClientFigures } from '../workload/client-load.js';

/** Everything a run reports, as written by `--report FILE` (JSON). */
export interface RunReport {
  /** Every invariant passed. */
  readonly passed: boolean;
  readonly preset: string;
  readonly config: SwarmConfig;
  readonly database: {
    readonly route: string;
    readonly serverVersion: string;
    /** `fsync`, `full_page_writes` and `synchronous_commit` as the server ran them. */
    readonly durability: string;
  };
  readonly startedAt: string;
  /** Whole run, setup and checks included, ms. */
  readonly durationMs: number;
  /** From the first session start until every instance had finished, ms. */
  readonly workloadMs: number;
  readonly schemas: readonly string[];
  readonly sessions: {
    readonly roots: number;
    readonly instances: number;
    readonly completed: number;
  };
  readonly clients: ClientFigures;
  readonly throughput: {
    readonly orchestrationTurnsPerSecond: number;
    readonly activitiesPerSecond: number;
    readonly messagesPerSecond: number;
    readonly instancesCompletedPerSecond: number;
  };
  readonly fleet: {
    readonly workers: number;
    readonly restarts: number;
    readonly unexpectedExits: number;
    readonly metrics: MetricsSnapshot | null;
    /** What the workers of each runtime did (a mixed fleet has a `rust` entry). */
    readonly engines: Partial<Record<EngineKind, EngineTotals>>;
    /** Instances whose orchestration items both a duro and a Rust worker fetched. */
    readonly sharedInstances: number;
  };
  readonly leases: Readonly<Record<'orchestrator' | 'worker', LeaseFigures>>;
  readonly faults: {
    /** How many faults the run planned; a fault that found no target in time was skipped. */
    readonly planned: number;
    /** Per kind, the faults that happened. */
    readonly injected: Readonly<Record<string, number>>;
    readonly outcomes: readonly FaultOutcome[];
  };
  readonly invariants: readonly InvariantResult[];
  /** Folder of the worker logs. */
  readonly logDir: string;
  /** The run's schemas were kept for inspection (failed run, or asked for). */
  readonly keptSchemas: boolean;
}
