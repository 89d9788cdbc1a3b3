import type {
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
  OrchestrationTurnCommit,
} from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import type { TurnCommits } from '../turn/turn-commit.js';
import { sendTogether, type QueuedAck } from './batch-call.js';
import type { ActivityHandoff } from './activity-handoff.js';

/**
 * Commits the turns of one fetched batch together, with the provider's `ackOrchestrationItems`.
 * A turn's acknowledgement waits until every turn of the batch has acknowledged or finished, and
 * then they all go out in one call; each still succeeds or fails on its own. Acknowledgements
 * that come later (a retry, the failure a turn records after a failed ack) go out from the next
 * `setImmediate` callback, together with any others then waiting. With a `handoff`, a call whose
 * turns schedule activities asks for them to be written claimed when the runtime's worker has
 * room for them all, and hands those to the worker.
 * @internal
 */
export class TurnBatchAcks implements TurnCommits {
  /** Lock tokens of the batch's turns that have neither acknowledged nor finished. */
  private readonly waitingFor: Set<string>;
  private pending: QueuedAck<OrchestrationItemAck>[] = [];
  private flushing = false;
  private flushScheduled = false;

  constructor(
    private readonly ackOrchestrationItems: NonNullable<Provider['ackOrchestrationItems']>,
    lockTokens: readonly string[],
    private readonly handoff: ActivityHandoff | null,
  ) {
    this.waitingFor = new Set(lockTokens);
  }

  /** Queues one turn's commit; resolves once it committed, rejects with its own error. */
  commit(lockToken: string, commit: OrchestrationTurnCommit): Promise<void> {
    const queued = new Promise<void>((resolve, reject) => {
      this.pending.push({ ack: { lockToken, ...commit }, resolve, reject });
    });
    this.finish(lockToken);
    return queued;
  }

  /**
   * Marks a turn of the batch as done waiting for, once it acknowledged or finished (call it in
   * any case; again is harmless).
   */
  finish(lockToken: string): void {
    this.waitingFor.delete(lockToken);
    if (this.flushing || this.flushScheduled || this.waitingFor.size > 0) return;
    if (this.pending.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    this.flushing = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      await sendTogether(batch, (acks) => this.send(acks), 'ackOrchestrationItems');
    }
    this.flushing = false;
  }

  private async send(acks: OrchestrationItemAck[]): Promise<OrchestrationItemAckOutcome[]> {
    const scheduled = acks.flatMap((ack) => ack.workerItems);
    const ticket = scheduled.length > 0 ? (this.handoff?.reserve(scheduled) ?? null) : null;
    if (ticket === null) return this.ackOrchestrationItems(acks);
    let outcomes: OrchestrationItemAckOutcome[] = [];
    try {
      outcomes = await this.ackOrchestrationItems(acks, ticket.claim);
      return outcomes;
    } finally {
      const activities = outcomes.flatMap((outcome) =>
        outcome.ok ? (outcome.claimedActivities ?? []) : [],
      );
      // After the turns' own continuations, which note their executions' identities first.
      setImmediate(() => ticket.adopt(activities));
    }
  }
}
