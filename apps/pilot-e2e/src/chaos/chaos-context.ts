import type { EmbeddedPostgresServer } from '@duro/test-postgres';
import type pg from 'pg';
import type { Interval } from '../invariants/interval-union.js';
import type { WorkerFleet } from '../roles/worker-fleet.js';
import type { WorkerSlot } from '../roles/worker-slot.js';
import type { SwarmConfig } from '../swarm-config.js';
import type { SeededRandom } from '../workload/seeded-random.js';

/** The kinds of fault the run injects. */
export type FaultKind =
  | 'kill-mid-activity'
  | 'kill-mid-ack'
  | 'freeze'
  | 'connection-drop'
  | 'rolling-restart'
  | 'server-restart';

/** What one injection did. */
export interface FaultOutcome {
  readonly kind: FaultKind;
  /** Whether the fault actually happened (a target may not have been found in time). */
  readonly injected: boolean;
  readonly target: string;
  readonly atMs: number;
  readonly detail: string;
}

/** A span during which a worker process was stopped, epoch ms. */
export interface FreezeWindow {
  readonly worker: string;
  readonly fromMs: number;
  readonly toMs: number;
}

/** What a fault needs from the coordinator. */
export interface ChaosContext {
  readonly fleet: WorkerFleet;
  /** A pool of the coordinator's own, for `pg_terminate_backend`. */
  readonly admin: pg.Pool;
  readonly config: SwarmConfig;
  readonly random: SeededRandom;
  /** Freezes are appended here (the lease invariant excuses observations inside them). */
  readonly freezes: FreezeWindow[];
  /** The run's own server, when it can be crashed and restarted (embedded PostgreSQL). */
  readonly server: EmbeddedPostgresServer | undefined;
  /** Spans the server was down are appended here. */
  readonly outages: Interval[];
  /**
   * Workers this fault goes to when one of them is a candidate (in a mixed fleet, the Rust
   * worker for every other fault, so chaos reaches it as often as the rest of the fleet).
   */
  readonly favoured: ((slot: WorkerSlot) => boolean) | undefined;
}

/** A random running worker, or `undefined` when none runs. */
export function pickRunning(
  context: ChaosContext,
  accept: (slot: WorkerSlot) => boolean = () => true,
): WorkerSlot | undefined {
  const all = context.fleet.running().filter(accept);
  const favoured = context.favoured === undefined ? [] : all.filter(context.favoured);
  const candidates = favoured.length > 0 ? favoured : all;
  if (candidates.length === 0) return undefined;
  return candidates[context.random.between(0, candidates.length - 1)];
}

/** Waits until `find` returns a value or `timeoutMs` passes. */
export async function waitFor<T>(
  find: () => T | undefined,
  timeoutMs: number,
  pollMs = 20,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
