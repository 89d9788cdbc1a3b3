/**
 * The room of one worker batch slot. Its own fetches keep at most `size` activities running
 * here; room promised to a turn commit that claims activities (see `ActivityHandoff`) is held
 * apart until the commit returns, so two claims never count on the same room.
 * @internal
 */
export class BatchSlot {
  /** Activities started here whose acknowledgement has not settled yet. */
  private readonly unsettled = new Set<Promise<void>>();
  /** Activities started here whose own work has not ended: they take the room. */
  private working = 0;
  private reserved = 0;
  private waiters: (() => void)[] = [];

  constructor(
    readonly workerId: string,
    private readonly size: number,
  ) {}

  /** Activities the slot's own next fetch may ask for. */
  get fetchRoom(): number {
    return Math.max(0, this.size - this.working - this.reserved);
  }

  /**
   * Runs one activity here. `work` calls `finished` once the activity's own work has ended and
   * only its acknowledgement is left; its room is free from then, or once `work` settles. `work`
   * must not reject.
   */
  run(work: (finished: () => void) => Promise<void>): void {
    this.working += 1;
    let counted = true;
    const finished = (): void => {
      if (!counted) return;
      counted = false;
      this.working -= 1;
      this.wake();
    };
    const settled = work(finished).finally(finished);
    this.unsettled.add(settled);
    void settled.finally(() => this.unsettled.delete(settled));
  }

  /** Holds up to `wanted` of the free room for a claim; returns how much it held. */
  reserveRoom(wanted: number): number {
    const room = Math.min(wanted, this.fetchRoom);
    this.reserved += room;
    return room;
  }

  /** Gives back room held for a claim, once its activities (if any) run here. */
  releaseRoom(count: number): void {
    this.reserved -= count;
    this.wake();
  }

  /** Resolves once the slot's own fetch has room. */
  async untilFetchRoom(): Promise<void> {
    while (this.fetchRoom === 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves when every activity started here has ended and settled its acknowledgement. */
  async drained(): Promise<void> {
    await Promise.allSettled(this.unsettled);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
