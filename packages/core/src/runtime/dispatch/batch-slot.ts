/**
 * The room of one worker batch slot. Its own fetches keep at most `size` activities running
 * here; room promised to a turn commit that claims activities (see `ActivityHandoff`) is held
 * apart until the commit returns, so two claims never count on the same room.
 * @internal
 */
export class BatchSlot {
  private readonly running = new Set<Promise<void>>();
  private reserved = 0;
  private waiters: (() => void)[] = [];

  constructor(
    readonly workerId: string,
    private readonly size: number,
  ) {}

  /** Activities the slot's own next fetch may ask for. */
  get fetchRoom(): number {
    return Math.max(0, this.size - this.running.size - this.reserved);
  }

  /** Counts an activity as running here until it has ended. */
  run(activity: Promise<void>): void {
    this.running.add(activity);
    void activity.finally(() => {
      this.running.delete(activity);
      this.wake();
    });
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

  /** Resolves when every activity started here has ended. */
  async drained(): Promise<void> {
    await Promise.allSettled(this.running);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
