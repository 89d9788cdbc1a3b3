/**
 * What an idle fetch can claim. Fetches with the same `key` (the same filters) can claim the
 * same messages, so waking one of them is as good as waking all; `sessionOwner` is the session
 * owner it claims for, the only one that can take messages of the sessions that owner holds.
 * @internal
 */
export interface WaitScope {
  readonly key: string;
  readonly sessionOwner: string | null;
}

/** One idle fetch waiting on a queue. @internal */
export interface Waiter {
  readonly scope: WaitScope;
  /** Ends the wait; called once, after the waiter has left the queue's list. */
  readonly wake: () => void;
}

/**
 * The idle fetches waiting on one queue, longest waiting first, and the wake-ups that arrived
 * while no fetch of a scope was waiting (a fetch of that scope was busy and may have looked too
 * early): the next fetch of the scope to wait takes such a wake-up and looks again at once.
 * @internal
 */
export class QueueWaiters {
  #waiting: Waiter[] = [];
  /** Every scope key a fetch of this queue has waited with. */
  readonly #scopes = new Set<string>();
  /** Scope keys with a wake-up that found nobody waiting. */
  readonly #pending = new Set<string>();

  /** Whether any fetch is waiting. */
  get isEmpty(): boolean {
    return this.#waiting.length === 0;
  }

  /** Takes the wake-up left for `key`, if one is; `true` when there was one. */
  takePending(key: string): boolean {
    return this.#pending.delete(key);
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
   * Wakes the longest-waiting fetch of every scope; with `leavePending`, a scope with nobody
   * waiting gets a pending wake-up instead.
   */
  wakeOnePerScope(leavePending: boolean): void {
    for (const key of this.#scopes) this.wakeNext(key, leavePending);
  }

  /** Wakes the longest-waiting fetch of scope `key`, else (with `leavePending`) leaves a wake-up. */
  wakeNext(key: string, leavePending = true): void {
    const waiter = this.#waiting.find((w) => w.scope.key === key);
    if (waiter !== undefined) this.#wake(waiter);
    else if (leavePending) this.#pending.add(key);
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
