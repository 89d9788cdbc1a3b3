import type { MetricsSnapshot } from '@duro/core';
import type { FreezeWindow } from '../chaos/chaos-context.js';
import type { AuditTrail } from '../observe/audit-records.js';
import type { InstanceRow } from '../roles/swarm-database.js';
import type { SwarmConfig } from '../swarm-config.js';
import { digestSession } from '../workload/activity-names.js';
import { sessionKey } from '../workload/client-load.js';
import type { SessionInput, SessionSummary } from '../workload/session-input.js';
import type { SessionPlan } from '../workload/session-plan.js';
import { checkAttemptsBounded } from './attempts-bounded.js';
import type { WorkerLife } from './claim-holds.js';
import { checkClaimsObserved, type RuntimeClaimCounts } from './claims-observed.js';
import { checkDeliveredOnceInOrder } from './delivered-once-in-order.js';
import { checkHistoryBounded, type HistorySizes } from './history-bounded.js';
import type { InstanceOutcome } from './instance-outcome.js';
import type { InvariantResult } from './invariant-result.js';
import type { Interval } from './interval-union.js';
import { checkNoAckLoop } from './no-ack-loop.js';
import { checkNoExpiredLease } from './no-expired-lease.js';
import { checkQueuesDrained, type QueueLeftovers } from './queues-drained.js';
import { checkNoStall } from './no-stall.js';
import { stallBounds } from './stall-evidence.js';
import { checkSessionsComplete, type DigestOutcome } from './sessions-complete.js';

/** Everything the end-of-run checks look at. */
export interface RunEvidence {
  /** Every planned instance per schema (roots and descendants). */
  readonly plans: ReadonlyMap<string, readonly SessionPlan[]>;
  /** Every instance the store holds per schema. */
  readonly instances: ReadonlyMap<string, readonly InstanceRow[]>;
  readonly clientSent: ReadonlyMap<string, number>;
  /** Per session, the client messages enqueued again after an enqueue failed. */
  readonly clientResent: ReadonlyMap<string, ReadonlySet<number>>;
  readonly failedSends: readonly string[];
  /** What the workers' observers recorded. */
  readonly audit: AuditTrail;
  /** Claims and records the observers could not write. */
  readonly unobserved: number;
  /** What each worker's runtime counted it took up. */
  readonly runtimeCounts: readonly RuntimeClaimCounts[];
  readonly lives: readonly WorkerLife[];
  readonly freezes: readonly FreezeWindow[];
  /** Spans during which the database server was down. */
  readonly outages: readonly Interval[];
  /** When each worker had its connections cut. */
  readonly connectionDrops: readonly { readonly worker: string; readonly atMs: number }[];
  readonly metrics: MetricsSnapshot | null;
  readonly queues: readonly QueueLeftovers[];
  readonly history: HistorySizes;
}

function parseOutput<Output>(output: string | null): Output | null {
  if (output === null) return null;
  try {
    return JSON.parse(output) as Output;
  } catch {
    return null;
  }
}

/**
 * Matches plans with what the store holds: each planned instance's outcome, the digest
 * sub-orchestrations the sessions ran (named after their session), and instances no plan names.
 */
export function instanceOutcomes(evidence: RunEvidence): {
  outcomes: InstanceOutcome[];
  digests: DigestOutcome[];
  unplanned: string[];
} {
  const outcomes: InstanceOutcome[] = [];
  const digests: DigestOutcome[] = [];
  const unplanned: string[] = [];
  for (const [schema, plans] of evidence.plans) {
    const rows = new Map((evidence.instances.get(schema) ?? []).map((row) => [row.instance, row]));
    for (const plan of plans) {
      const row = rows.get(plan.id);
      rows.delete(plan.id);
      const status = row?.status ?? 'Missing';
      const completed = status === 'Completed';
      outcomes.push({
        schema,
        plan,
        status,
        summary: completed ? parseOutput<SessionSummary>(row?.output ?? null) : null,
        carriedLedger: completed
          ? null
          : (parseOutput<SessionInput>(row?.carried ?? null)?.ledger ?? null),
        error: status === 'Failed' ? (row?.output ?? null) : null,
      });
    }
    const planned = new Set(plans.map((plan) => plan.id));
    for (const [id, row] of rows) {
      const session = digestSession(id);
      if (session !== null && planned.has(session)) {
        digests.push({ name: sessionKey(schema, id), status: row.status });
      } else {
        unplanned.push(sessionKey(schema, id));
      }
    }
  }
  return { outcomes, digests, unplanned };
}

/** Runs every invariant, in the order the report lists them. */
export function checkInvariants(evidence: RunEvidence, config: SwarmConfig): InvariantResult[] {
  const { outcomes, digests, unplanned } = instanceOutcomes(evidence);
  const { limits } = config;
  const { audit } = evidence;
  return [
    checkSessionsComplete(outcomes, digests, unplanned),
    checkDeliveredOnceInOrder(
      outcomes,
      evidence.clientSent,
      evidence.failedSends,
      evidence.clientResent,
    ),
    checkClaimsObserved(audit.claims, evidence.runtimeCounts, evidence.unobserved),
    checkNoExpiredLease(audit.claims, evidence.freezes, evidence.outages),
    checkNoStall(evidence, stallBounds(config)),
    checkNoAckLoop(audit, limits.maxLockTokenAckFailuresPerMessage),
    checkAttemptsBounded(audit.claims, evidence.metrics, limits.maxAttemptCount),
    checkQueuesDrained(evidence.queues),
    checkHistoryBounded(
      evidence.history,
      limits.maxEventsPerExecution,
      limits.maxBytesPerExecution,
    ),
  ];
}
