import { ProviderError } from '@duro/core';

/** A request waiting for its group to be sent, and its caller. */
interface Pending<Request, Result> {
  readonly request: Request;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/** How {@link TickBatches} sends requests. @internal */
export interface BatchSenders<Request, Result> {
  /** Sends one request in a statement of its own. */
  readonly alone: (request: Request) => Promise<Result>;
  /** Sends several requests in one statement, in the order given; one result per request. */
  readonly together: (requests: readonly Request[]) => Promise<readonly Result[]>;
}

/**
 * Sends the requests made in one tick of the event loop (before it next runs a callback) as one
 * statement (or, past `maxGroupSize`, as several in a row), so that callers who write at the same moment (a process
 * starting a burst of instances, the instances finished by one batch ack starting their
 * successors) share one transaction and its commit instead of paying one each. A lone request
 * waits only for the end of the current tick.
 *
 * Each caller still gets its own outcome. When a group's statement fails for good (a
 * non-retryable `ProviderError`: nothing was committed), its requests are sent again one at a
 * time, in their order, so a bad request fails alone. When the outcome is unknown (a retryable
 * error, such as a connection lost around the commit), every caller gets that error, as it
 * would have alone: sending again could write twice.
 * @internal
 */
export class TickBatches<Request, Result> {
  readonly #senders: BatchSenders<Request, Result>;
  readonly #maxGroupSize: number;
  #pending: Pending<Request, Result>[] = [];
  #scheduled: NodeJS.Immediate | null = null;
  readonly #inFlight = new Set<Promise<void>>();

  /**
   * @param maxGroupSize the most requests one statement carries: a tick with more sends them as
   * several statements, one after another, so a burst neither builds one huge transaction nor
   * takes every connection of the pool.
   */
  constructor(senders: BatchSenders<Request, Result>, maxGroupSize: number) {
    this.#senders = senders;
    this.#maxGroupSize = maxGroupSize;
  }

  /** Queues `request` for this tick's group; settles with its own outcome. */
  send(request: Request): Promise<Result> {
    const outcome = new Promise<Result>((resolve, reject) => {
      this.#pending.push({ request, resolve, reject });
    });
    this.#scheduled ??= setImmediate(() => this.#sendPending());
    return outcome;
  }

  /** Sends what is queued now, and resolves once every group sent so far has settled. */
  async settle(): Promise<void> {
    this.#sendPending();
    await Promise.all(this.#inFlight);
  }

  #sendPending(): void {
    if (this.#scheduled !== null) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    const group = this.#pending;
    if (group.length === 0) return;
    this.#pending = [];
    const sent = this.#sendInGroups(group).finally(() => this.#inFlight.delete(sent));
    this.#inFlight.add(sent);
  }

  async #sendInGroups(pending: readonly Pending<Request, Result>[]): Promise<void> {
    for (let start = 0; start < pending.length; start += this.#maxGroupSize) {
      await this.#sendGroup(pending.slice(start, start + this.#maxGroupSize));
    }
  }

  async #sendGroup(group: readonly Pending<Request, Result>[]): Promise<void> {
    if (group.length === 1) {
      const [only] = group as [Pending<Request, Result>];
      await this.#senders.alone(only.request).then(only.resolve, only.reject);
      return;
    }
    let results: readonly Result[];
    try {
      results = await this.#senders.together(group.map((pending) => pending.request));
    } catch (error) {
      if (!ProviderError.isInstance(error) || error.isRetryable()) {
        for (const pending of group) pending.reject(error);
        return;
      }
      for (const pending of group) {
        await this.#senders.alone(pending.request).then(pending.resolve, pending.reject);
      }
      return;
    }
    group.forEach((pending, index) => pending.resolve(results[index] as Result));
  }
}
