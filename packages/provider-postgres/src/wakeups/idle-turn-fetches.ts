import type { DispatcherCapabilityFilter, FetchedOrchestrationItem } from '@duro/core';
import type { WaitingHandoff } from './long-poll.js';

/** What a waiting batch fetch of turns asked for: a claim made for it must honour it. */
export interface TurnFetchRequest {
  readonly lockTimeoutMs: number;
  readonly filter: DispatcherCapabilityFilter | null;
  readonly maxItems: number;
}

/** A waiting fetch taken by a claim: hand it what was claimed for it, or nothing. */
export interface TakenTurnFetch extends TurnFetchRequest {
  /** Gives the fetch the turns claimed for it; none lets it wait on. Call it exactly once. */
  hand(turns: readonly FetchedOrchestrationItem[]): void;
}

interface Waiting extends TurnFetchRequest {
  readonly resolve: (turns: FetchedOrchestrationItem[] | null) => void;
}

/**
 * The provider's batch fetches of turns that are waiting for work, so that an activity
 * acknowledgement can claim the turns its completions wake in its own statement and hand them
 * to one of them, instead of committing, notifying, and having the woken fetch claim them in a
 * transaction of its own. A fetch is offered as it starts waiting and withdrawn when its wait
 * ends otherwise; one taken by an acknowledgement waits for what it is handed.
 * @internal
 */
export class IdleTurnFetches {
  readonly #waiting: Waiting[] = [];

  /** The handoff of one batch fetch asking for `request`, for `pollForWork`. */
  handoffFor(request: TurnFetchRequest): WaitingHandoff<FetchedOrchestrationItem[]> {
    return {
      offer: () => {
        let settle: (turns: FetchedOrchestrationItem[] | null) => void = () => undefined;
        const handed = new Promise<FetchedOrchestrationItem[] | null>((resolve) => {
          settle = resolve;
        });
        const waiting: Waiting = { ...request, resolve: settle };
        this.#waiting.push(waiting);
        return {
          handed,
          withdraw: () => {
            const index = this.#waiting.indexOf(waiting);
            if (index < 0) return false;
            this.#waiting.splice(index, 1);
            settle(null);
            return true;
          },
        };
      },
    };
  }

  /** Takes the fetch that has waited longest, or null when none waits. */
  take(): TakenTurnFetch | null {
    const waiting = this.#waiting.shift();
    if (waiting === undefined) return null;
    let handed = false;
    return {
      lockTimeoutMs: waiting.lockTimeoutMs,
      filter: waiting.filter,
      maxItems: waiting.maxItems,
      hand: (turns) => {
        if (handed) return;
        handed = true;
        waiting.resolve(turns.length > 0 ? [...turns] : null);
      },
    };
  }
}
