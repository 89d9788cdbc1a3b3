import type { FreezeWindow } from '../chaos/chaos-context.js';
import type { AuditTrail } from '../observe/audit-records.js';
import type { SwarmConfig } from '../swarm-config.js';
import type { WorkerLife } from './claim-holds.js';
import type { Interval } from './interval-union.js';

/** What the liveness check looks at besides the audit trail. */
export interface StallEvidence {
  readonly audit: AuditTrail;
  readonly lives: readonly WorkerLife[];
  readonly freezes: readonly FreezeWindow[];
  /** Spans during which the database server was down (restarts). */
  readonly outages: readonly Interval[];
  /** When each worker had its connections cut (`pg_terminate_backend`), epoch ms. */
  readonly connectionDrops: readonly { readonly worker: string; readonly atMs: number }[];
}

/** The settings the bounds follow from (see {@link stallBounds}), ms. */
export interface StallBounds {
  /** Bound on the idle wait of work whose arrival the queue announced. */
  readonly announcedMs: number;
  /** Bound on the idle wait of work freed silently (a lease or a session lock running out). */
  readonly silentMs: number;
  readonly sessionLockTimeoutMs: number;
  readonly sessionIdleTimeoutMs: number;
  readonly orchestratorLockTimeoutMs: number;
  readonly workerLockTimeoutMs: number;
}

/**
 * The bounds a run's configuration implies. Work the queue announces (a new message, an
 * acknowledgement or abandon that frees an instance, a delayed message coming due) wakes an idle
 * fetch at once, which then claims it within one dispatcher poll interval; work freed silently
 * (an expired lease, a session lock that ran out) is noticed by the provider's safety-net poll,
 * up to `idlePollIntervalMs` later. `claimAllowanceMs` is the time from a wake-up until the claim
 * is sent on a busy machine.
 */
export function stallBounds(config: SwarmConfig): StallBounds {
  const { runtime, limits } = config;
  const announcedMs = runtime.dispatcherPollIntervalMs + limits.claimAllowanceMs;
  return {
    announcedMs,
    silentMs: announcedMs + runtime.idlePollIntervalMs,
    sessionLockTimeoutMs: runtime.sessionLockTimeoutMs,
    sessionIdleTimeoutMs: runtime.sessionIdleTimeoutMs,
    orchestratorLockTimeoutMs: runtime.orchestratorLockTimeoutMs,
    workerLockTimeoutMs: runtime.workerLockTimeoutMs,
  };
}
