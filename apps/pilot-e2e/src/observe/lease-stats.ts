import type { AuditQueue } from './audit-records.js';

/** Figures about the leases one worker was handed, per queue. */
export interface LeaseFigures {
  readonly fetches: number;
  /** Smallest remaining lease seen at hand-out, ms (`null` before the first fetch). */
  readonly minRemainingMs: number | null;
  /** Fetches whose lease had less than half the lock timeout left. */
  readonly belowHalf: number;
  /** Fetches whose lease had run out (or whose lock was gone) at hand-out. */
  readonly expired: number;
  /** Sum of fetch latencies, ms (for the mean). */
  readonly fetchMsTotal: number;
  /** Slowest fetch that returned work, ms. */
  readonly fetchMsMax: number;
}

const EMPTY: LeaseFigures = {
  fetches: 0,
  minRemainingMs: null,
  belowHalf: 0,
  expired: 0,
  fetchMsTotal: 0,
  fetchMsMax: 0,
};

/** Accumulates {@link LeaseFigures} for both queues of one worker. */
export class LeaseStats {
  private readonly figures: Record<AuditQueue, LeaseFigures> = {
    orchestrator: EMPTY,
    worker: EMPTY,
  };

  /** Records one fetch that returned work. `remainingMs` is `null` when the lock was gone. */
  record(
    queue: AuditQueue,
    remainingMs: number | null,
    lockTimeoutMs: number,
    fetchMs: number,
  ): void {
    const current = this.figures[queue];
    const expired = remainingMs === null || remainingMs <= 0;
    this.figures[queue] = {
      fetches: current.fetches + 1,
      minRemainingMs:
        remainingMs === null
          ? current.minRemainingMs
          : Math.min(current.minRemainingMs ?? remainingMs, remainingMs),
      belowHalf:
        current.belowHalf + (remainingMs === null || remainingMs < lockTimeoutMs / 2 ? 1 : 0),
      expired: current.expired + (expired ? 1 : 0),
      fetchMsTotal: current.fetchMsTotal + fetchMs,
      fetchMsMax: Math.max(current.fetchMsMax, fetchMs),
    };
  }

  snapshot(): Record<AuditQueue, LeaseFigures> {
    return { ...this.figures };
  }
}

/** Adds up the figures of several workers (or several lives of one worker). */
export function mergeLeaseFigures(all: readonly LeaseFigures[]): LeaseFigures {
  return all.reduce<LeaseFigures>(
    (sum, next) => ({
      fetches: sum.fetches + next.fetches,
      minRemainingMs:
        next.minRemainingMs === null
          ? sum.minRemainingMs
          : Math.min(sum.minRemainingMs ?? next.minRemainingMs, next.minRemainingMs),
      belowHalf: sum.belowHalf + next.belowHalf,
      expired: sum.expired + next.expired,
      fetchMsTotal: sum.fetchMsTotal + next.fetchMsTotal,
      fetchMsMax: Math.max(sum.fetchMsMax, next.fetchMsMax),
    }),
    EMPTY,
  );
}
