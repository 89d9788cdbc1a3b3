/**
 * Sends the batch fetches of one dispatcher's slots one at a time. Fetches in flight together from
 * one process read the same candidates and race each other for them: every instance or activity
 * that one of them claims, the others tried to claim and lost, and each comes back with part of a
 * batch. One after another, a fetch sees what the one before it claimed and claims what is left,
 * up to its batch, while the turns and activities already fetched still run side by side in their
 * slots.
 * @internal
 */
export class SerialFetches {
  private previous: Promise<unknown> = Promise.resolve();

  constructor(private readonly stop: AbortSignal) {}

  /**
   * Runs `fetch` once every fetch queued before it has settled. A fetch whose turn comes after
   * `stop` fired is not sent: it resolves to `whenStopped`.
   */
  run<T>(fetch: () => Promise<T>, whenStopped: T): Promise<T> {
    const turn = this.previous.then(() => (this.stop.aborted ? whenStopped : fetch()));
    this.previous = turn.catch(() => undefined);
    return turn;
  }
}
