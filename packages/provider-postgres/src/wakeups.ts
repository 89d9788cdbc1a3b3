import type { WakeupQueue } from './wakeup-channel.js';
import type { WakeupListener, WakeupSignal } from './wakeup-listener.js';

/** How often an idle fetch polls while the listening connection is down, at most, ms. */
const FALLBACK_POLL_INTERVAL_MS = 100;

/** How many future due times are remembered per queue (the earliest are kept). */
const MAX_DUE_TIMES = 256;

/** What {@link Wakeups} needs from its provider. @internal */
export interface WakeupsOptions {
  /** Safety-net poll interval of an idle fetch while notifications work, ms. */
  readonly idlePollIntervalMs: number;
  /** The caller's clock, epoch ms, the clock of `visible_at`. */
  readonly nowMs: () => number;
  /** Reads from the database when the next delayed message of a queue comes due, epoch ms. */
  readonly readNextDue: (queue: WakeupQueue) => Promise<number | null>;
  /** Makes the listening connection, reporting to the given callback. */
  readonly createListener: (signal: (signal: WakeupSignal) => void) => WakeupListener;
}

interface Waiter {
  readonly queue: WakeupQueue;
  readonly wake: () => void;
}

interface DueTimes {
  /** Epoch ms, ascending, all in the future when last pruned. */
  times: number[];
  /** `performance.now()` of the last database read, or -Infinity. */
  readAt: number;
  reading: Promise<void> | null;
}

/**
 * What an idle fetch waits for: a NOTIFY on its queue's channel (new work visible now), the
 * moment the earliest delayed message it knows of comes due (timers, delayed retries), or a slow
 * safety-net poll, whichever is first. Delayed work is known from this provider's own writes and
 * from a database read done at most once per poll interval. A waiter snapshots
 * {@link generation} before it fetches, so a notification that arrives between its fetch and its
 * wait still wakes it.
 * @internal
 */
export class Wakeups {
  readonly #options: WakeupsOptions;
  readonly #generations: Record<WakeupQueue, number> = { orchestrator: 0, worker: 0 };
  readonly #due: Record<WakeupQueue, DueTimes> = {
    orchestrator: { times: [], readAt: -Infinity, reading: null },
    worker: { times: [], readAt: -Infinity, reading: null },
  };
  readonly #waiters = new Set<Waiter>();
  #listener: WakeupListener | null = null;
  #closed = false;

  constructor(options: WakeupsOptions) {
    this.#options = options;
  }

  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Changes whenever work may have appeared on `queue`. */
  generation(queue: WakeupQueue): number {
    return this.#generations[queue];
  }

  /** Notes that a message of `queue` becomes visible at `dueMs` (epoch ms). */
  noteDue(queue: WakeupQueue, dueMs: number): void {
    if (dueMs <= this.#options.nowMs()) return;
    const due = this.#due[queue];
    const at = due.times.findIndex((t) => t >= dueMs);
    if (due.times[at] === dueMs) return;
    due.times.splice(at === -1 ? due.times.length : at, 0, dueMs);
    if (due.times.length > MAX_DUE_TIMES) due.times.length = MAX_DUE_TIMES;
    this.#wakeWaiters((w) => w.queue === queue);
  }

  /**
   * Resolves when work may have appeared on `queue` since `since`, when a delayed message comes
   * due, at the next safety-net poll, or at `deadline` (a `performance.now()` value), whichever
   * comes first; also at once when the provider closes.
   */
  async waitForWork(queue: WakeupQueue, since: number, deadline: number): Promise<void> {
    if (this.#closed) return;
    const listener = this.#startListener();
    if (this.#generations[queue] !== since) return;
    const dueMs = await this.#nextDue(queue);
    if (this.#closed || this.#generations[queue] !== since) return;

    const now = performance.now();
    const pollMs = listener.connected
      ? this.#options.idlePollIntervalMs
      : Math.min(this.#options.idlePollIntervalMs, FALLBACK_POLL_INTERVAL_MS);
    let wakeAt = Math.min(deadline, now + pollMs);
    if (dueMs !== null) wakeAt = Math.min(wakeAt, now + (dueMs - this.#options.nowMs()));

    await new Promise<void>((resolve) => {
      const waiter: Waiter = {
        queue,
        wake: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, Math.max(0, wakeAt - now));
      this.#waiters.add(waiter);
    });
  }

  /** Wakes every waiter and stops listening; later waits return at once. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#wakeWaiters(() => true);
    await this.#listener?.close();
  }

  #startListener(): WakeupListener {
    this.#listener ??= this.#options.createListener((signal) => this.#onSignal(signal));
    this.#listener.start();
    return this.#listener;
  }

  #onSignal(signal: WakeupSignal): void {
    for (const queue of ['orchestrator', 'worker'] as const) {
      if (signal === 'all' || signal === queue) this.#generations[queue]++;
    }
    this.#wakeWaiters((w) => signal === 'all' || w.queue === signal);
  }

  #wakeWaiters(which: (waiter: Waiter) => boolean): void {
    for (const waiter of [...this.#waiters]) if (which(waiter)) waiter.wake();
  }

  /** The earliest known future due time of `queue`, refreshed from the database when stale. */
  async #nextDue(queue: WakeupQueue): Promise<number | null> {
    const due = this.#due[queue];
    if (performance.now() - due.readAt >= this.#options.idlePollIntervalMs) {
      due.reading ??= this.#readDue(queue, due).finally(() => {
        due.reading = null;
      });
      await due.reading;
    }
    const nowMs = this.#options.nowMs();
    const firstFuture = due.times.findIndex((t) => t > nowMs);
    due.times = firstFuture === -1 ? [] : due.times.slice(firstFuture);
    return due.times[0] ?? null;
  }

  async #readDue(queue: WakeupQueue, due: DueTimes): Promise<void> {
    due.readAt = performance.now();
    try {
      const dueMs = await this.#options.readNextDue(queue);
      if (dueMs !== null) this.noteDue(queue, dueMs);
    } catch {
      // Unknown until the next read; the safety-net poll still runs, and a fetch that fails for
      // the same reason reports it to the caller.
    }
  }
}
