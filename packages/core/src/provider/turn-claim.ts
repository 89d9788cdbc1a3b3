import type { ActivityClaim } from './activity-claim.js';
import type { DispatcherCapabilityFilter } from './fetch-filters.js';
import type {
  FetchedOrchestrationItem,
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
} from './orchestration-item.js';

/**
 * Asks `Provider.ackWorkItemsRunningTurns` to claim, in the transaction that acknowledges the
 * activities, the next turns of the instances their completions go to: at most `maxItems`
 * instances that nobody holds, each locked, leased and counted as an attempt exactly as
 * `fetchOrchestrationItems` would leave it, with the messages and history a fetch would give.
 */
export interface TurnClaim {
  /** The most turns to claim (at least 1). */
  readonly maxItems: number;
  /** Lease of each claimed instance, in ms. */
  readonly lockTimeoutMs: number;
  /** Which pinned duroxide versions the caller replays, as for a fetch. */
  readonly filter: DispatcherCapabilityFilter | null;
}

/**
 * Commits turns an activity acknowledgement claimed. Its first call writes them in the
 * acknowledgement's transaction and commits it; each turn still succeeds or fails on its own,
 * and the outcomes come back in the order of `acks`. Later calls act as
 * `Provider.ackOrchestrationItems`.
 */
export type CommitClaimedTurns = (
  acks: readonly OrchestrationItemAck[],
  claim?: ActivityClaim,
) => Promise<OrchestrationItemAckOutcome[]>;

/**
 * Runs the turns an activity acknowledgement claimed, committing them through `commit`; resolves
 * once every turn has ended (committed, failed or abandoned).
 */
export type RunClaimedTurns = (
  turns: readonly FetchedOrchestrationItem[],
  commit: CommitClaimedTurns,
) => Promise<void>;
