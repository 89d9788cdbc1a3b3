/**
 * Counts the turns a runtime's orchestration side has in progress, to keep those its activity
 * acknowledgements claim within `orchestrationConcurrency × orchestrationBatchSize`. The slots'
 * batches always count (a slot fetches up to a batch whatever the count); an acknowledgement
 * only claims turns while the count is below the limit.
 * @internal
 */
export class TurnRoom {
  private inProgress = 0;

  constructor(private readonly limit: number) {}

  /** Counts `count` turns a slot fetched. */
  add(count: number): void {
    this.inProgress += count;
  }

  /** Counts up to `wanted` more turns while under the limit; returns how many it counted. */
  take(wanted: number): number {
    const taken = Math.max(0, Math.min(wanted, this.limit - this.inProgress));
    this.inProgress += taken;
    return taken;
  }

  /** Uncounts `count` turns that ended, or that were counted and not claimed. */
  give(count: number): void {
    this.inProgress -= count;
  }
}
