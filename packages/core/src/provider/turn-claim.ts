import { workItemInstance } from '../model/work-item.js';
import type { ActivityClaim } from './activity-claim.js';
import type { DispatcherCapabilityFilter } from './fetch-filters.js';
import type {
  FetchedOrchestrationItem,
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
  WorkItemAck,
  WorkItemAckOutcome,
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

/**
 * The instances a `TurnClaim` asks for: those the acknowledged completions among `acks` go to,
 * each once, in the order of `acks`, at most `claim.maxItems` of them. Whether each can be
 * claimed is the provider's to find out.
 */
export function turnClaimInstances(
  claim: TurnClaim,
  acks: readonly WorkItemAck[],
  outcomes: readonly WorkItemAckOutcome[],
): string[] {
  const instances = new Set<string>();
  acks.forEach(({ completion }, index) => {
    if (completion !== null && outcomes[index]?.ok === true && instances.size < claim.maxItems) {
      instances.add(workItemInstance(completion));
    }
  });
  return [...instances];
}
