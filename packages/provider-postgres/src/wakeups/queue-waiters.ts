/**
 * What an idle fetch can claim. Fetches with the same `key` (the same filters) can claim the
 * same messages, so waking one of them is as good as waking all; `sessionOwner` is the session
 * owner it claims for, the only one that can take messages of the sessions that owner holds.
 * `sharesLooks` says that another fetch of the key finding nothing means there is nothing for
 * this one either: false for an owner that holds sessions.
 * @internal
 */
export interface WaitScope {
  readonly key: string;
  readonly sessionOwner: string | null;
  readonly sharesLooks: boolean;
}

/** One idle fetch waiting on a queue. @internal */
export interface Waiter {
  readonly scope: WaitScope;
  /** Ends the wait; called once, after the waiter has left the queue's list. */
  readonly wake: () => void;
}

/**
 * The idle fetches waiting on one queue, longest waiting first, and the wake-ups that arrived
 * while no fetch of a scope was waiting. Wake-ups are numbered in the order they happen; a
 * fetch busy at the time may have looked too early, so the next fetch of the scope to wait that
 * started before the wake-up (its `markedAt` number is lower) takes it and looks again at once.
 * A fetch that started after it saw what caused it and leaves it.
 * @internal
 */
export class QueueWaiters {
  #waiting: Waiter[] = [];
  /**
   * Every scope key whose wake-ups are kept while nobody waits: those a fetch of this queue has
   * waited with, or has emptied the queue for (a later fetch may wait from that look).
   */
  readonly #scopes = new Set<string>();
  /** Per scope key, the number of the last wake-up that found nobody waiting. */
  readonly #pending = new Map<string, number>();

  /** Whether any fetch is waiting. */
  get isEmpty(): boolean {
    return this.#waiting.length === 0;
  }

  /**
   * Takes the wake-up left for `key` after wake-up number `markedAt`, if one is; `true` when
   * there was one.
   */
  takePending(key: string, markedAt: number): boolean {
    const pending = this.#pending.get(key);
    if (pending === undefined || pending <= markedAt) return false;
    this.#pending.delete(key);
    return true;
  }

  /** Keeps the wake-ups of scope `key` that find nobody waiting, from now on. */
  keepWakeupsOf(key: string): void {
    this.#scopes.add(key);
  }

  add(waiter: Waiter): void {
    this.#scopes.add(waiter.scope.key);
    this.#waiting.push(waiter);
  }

  /** Removes `waiter` without waking it (its own deadline ended the wait). */
  remove(waiter: Waiter): void {
    this.#waiting = this.#waiting.filter((w) => w !== waiter);
  }

  /**
   * Wakes the longest-waiting fetch of every scope; with a wake-up number, a scope with nobody
   * waiting is left that wake-up instead.
   */
  wakeOnePerScope(pendingAs: number | null): void {
    for (const key of this.#scopes) this.wakeNext(key, pendingAs);
  }

  /**
   * Wakes the longest-waiting fetch of scope `key`; with nobody waiting and a wake-up number,
   * leaves that wake-up.
   */
  wakeNext(key: string, pendingAs: number | null): void {
    const waiter = this.#waiting.find((w) => w.scope.key === key);
    if (waiter !== undefined) this.#wake(waiter);
    else if (pendingAs !== null) this.#pending.set(key, pendingAs);
  }

  /** Wakes the longest-waiting fetch that claims for session owner `owner`, if one waits. */
  wakeSessionOwner(owner: string): void {
    const waiter = this.#waiting.find((w) => w.scope.sessionOwner === owner);
    if (waiter !== undefined) this.#wake(waiter);
  }

  /** Wakes every waiting fetch. */
  wakeAll(): void {
    const all = this.#waiting;
    this.#waiting = [];
    for (const waiter of all) waiter.wake();
  }

  #wake(waiter: Waiter): void {
    this.remove(waiter);
    waiter.wake();
  }
}
