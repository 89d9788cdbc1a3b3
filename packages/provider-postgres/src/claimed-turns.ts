import {
  ProviderError,
  type ActivityClaim,
  type CommitClaimedTurns,
  type OrchestrationItemAck,
  type OrchestrationItemAckOutcome,
} from '@duro/core';
import { toProviderError } from './errors.js';
import type { ProviderDatabase, TransactionEnd } from './provider-database.js';

/** What the turns of an activity acknowledgement need from their provider. @internal */
export interface ClaimedTurnsCalls {
  /** Writes turns with `db`, as the batch acknowledgement does. */
  readonly ackTurns: (
    db: ProviderDatabase,
    acks: readonly OrchestrationItemAck[],
    claim: ActivityClaim | undefined,
  ) => Promise<OrchestrationItemAckOutcome[]>;
  /** Gives a claimed turn back with `db`, without counting an attempt. */
  readonly giveBack: (db: ProviderDatabase, lockToken: string) => Promise<void>;
  /** Notes turns whose acknowledgement committed. */
  readonly committed: (
    acks: readonly OrchestrationItemAck[],
    outcomes: readonly OrchestrationItemAckOutcome[],
  ) => void;
  /** Acknowledges turns once the transaction has ended, as `ackOrchestrationItems`. */
  readonly ackLater: CommitClaimedTurns;
}

/**
 * The turns an activity acknowledgement claimed in its transaction
 * (`PostgresProvider.ackWorkItemsRunningTurns`), until that transaction ends. The first
 * {@link commit} writes the turns and commits the whole transaction. While it is open, a turn the
 * runner abandons or renews is handled in it ({@link holds}), and a turn neither committed nor
 * abandoned is given back before the commit.
 * @internal
 */
export class ClaimedTurns {
  readonly #lockTokens: readonly string[];
  /** Claimed turns neither written nor given back. */
  readonly #unsettled: Set<string>;
  /** Claimed turns whose commit went through. */
  readonly #committed = new Set<string>();
  #ended = false;
  /** Writing the turns failed: the transaction is to be rolled back. */
  #failed = false;
  /** The commit's own failure: the outcome of everything in the transaction is unknown. */
  #commitError: ProviderError | null = null;

  constructor(
    readonly tx: ProviderDatabase,
    private readonly end: TransactionEnd,
    lockTokens: readonly string[],
    private readonly calls: ClaimedTurnsCalls,
  ) {
    this.#lockTokens = lockTokens;
    this.#unsettled = new Set(lockTokens);
  }

  /** Whether `lockToken` is a turn of this transaction that is still open. */
  holds(lockToken: string): boolean {
    return !this.#ended && this.#unsettled.has(lockToken);
  }

  /** Notes that the runner gave a turn back in the transaction. */
  gaveBack(lockToken: string): void {
    this.#unsettled.delete(lockToken);
  }

  /** Claimed turns whose commit did not go through: given back, or rolled back. */
  get uncommitted(): readonly string[] {
    return this.#lockTokens.filter((lockToken) => !this.#committed.has(lockToken));
  }

  readonly commit: CommitClaimedTurns = async (acks, claim) => {
    if (this.#ended) return this.calls.ackLater(acks, claim);
    this.#ended = true;
    let outcomes: OrchestrationItemAckOutcome[];
    try {
      outcomes = await this.calls.ackTurns(this.tx, acks, claim);
      acks.forEach((ack, index) => {
        if (outcomes[index]?.ok === true) this.#unsettled.delete(ack.lockToken);
      });
      await this.#giveBackUnsettled();
    } catch (error) {
      this.#failed = true;
      throw error;
    }
    try {
      await this.end.commit();
    } catch (error) {
      this.#commitError = ProviderError.isInstance(error)
        ? error
        : toProviderError('commit', error);
      throw this.#commitError;
    }
    acks.forEach((ack, index) => {
      if (outcomes[index]?.ok === true) this.#committed.add(ack.lockToken);
    });
    this.calls.committed(acks, outcomes);
    return outcomes;
  };

  /** The runner failed before committing: the transaction is to be rolled back. */
  abort(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failed = true;
  }

  /**
   * Ends what the runner left: a transaction it did not commit gives its turns back (and then
   * commits with the acknowledgement around it); one whose turns failed is rolled back.
   * @returns whether the acknowledgement in the transaction stands (false: rolled back).
   * @throws whatever the commit failed with, when its outcome is unknown.
   */
  async finish(): Promise<boolean> {
    if (this.#commitError !== null) throw this.#commitError;
    if (!this.#ended) {
      this.#ended = true;
      await this.#giveBackUnsettled().catch(() => {
        this.#failed = true;
      });
    }
    if (!this.#failed) return true;
    await this.end.rollback();
    return false;
  }

  async #giveBackUnsettled(): Promise<void> {
    for (const lockToken of this.#unsettled) await this.calls.giveBack(this.tx, lockToken);
  }
}
