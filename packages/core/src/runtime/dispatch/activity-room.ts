/**
 * One of the runtime's places for a running activity. Its index names the activity's worker
 * (`work-<index>-<runtime>`), as a worker slot does in duroxide.
 * @internal
 */
export interface ActivityPlace {
  readonly index: number;
  /** Keeps the place until `work` settles, then gives it back, whatever `release` says. */
  holdUntil(work: Promise<unknown>): void;
  /** Gives the place back now, unless `holdUntil` keeps it; later calls do nothing. */
  release(): void;
}

/**
 * The runtime's room for activities: `workerConcurrency` places, so that no more activities run
 * at once than that, however they were claimed (a fetch of one, a batch fetch, activities a turn
 * commit handed over, a redelivery). A place is taken before an activity's code starts and given
 * back once that code has settled; acknowledging the result does not hold one.
 * @internal
 */
export class ActivityRoom {
  /** Indexes of the free places, lowest last so that `pop` hands out the lowest. */
  private readonly freeIndexes: number[];
  private waiters: (() => void)[] = [];

  constructor(readonly capacity: number) {
    this.freeIndexes = Array.from({ length: capacity }, (_, index) => capacity - 1 - index);
  }

  /** How many places are free. */
  get free(): number {
    return this.freeIndexes.length;
  }

  /** Takes up to `wanted` free places (fewer when fewer are free). */
  take(wanted: number): ActivityPlace[] {
    const places: ActivityPlace[] = [];
    while (places.length < wanted) {
      const index = this.freeIndexes.pop();
      if (index === undefined) break;
      places.push(this.place(index));
    }
    return places;
  }

  /** Resolves once a place is free (at once when one is), or when `stop` fires. */
  async untilFree(stop: AbortSignal): Promise<void> {
    while (this.free === 0 && !stop.aborted) {
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          stop.removeEventListener('abort', wake);
          resolve();
        };
        this.waiters.push(wake);
        stop.addEventListener('abort', wake, { once: true });
      });
    }
  }

  private place(index: number): ActivityPlace {
    let taken = true;
    let keptBy: Promise<unknown> | null = null;
    const giveBack = (): void => {
      if (!taken) return;
      taken = false;
      this.freeIndexes.push(index);
      this.freeIndexes.sort((a, b) => b - a);
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    };
    return {
      index,
      holdUntil: (work) => {
        keptBy = work;
        void work.finally(giveBack).catch(() => undefined);
      },
      release: () => {
        if (keptBy === null) giveBack();
      },
    };
  }
}
