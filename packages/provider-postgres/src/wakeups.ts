import type { QueueDueTimes } from './operations/read-queue-due-times.js';
import type { WakeupQueue } from './wakeup-channel.js';
import type { WakeupListener, WakeupSignal } from './wakeup-listener.js';

/** How often an idle fetch polls while the listening connection is down, at most, ms. */
const FALLBACK_POLL_INTERVAL_MS = 100;

/** How many due times this provider's own writes announced are kept per queue. */
const MAX_NOTED_DUE_TIMES = 256;

/** How long a noted due time is kept after it passed, ms: longer than any fetch attempt. */
const NOTED_DUE_TIME_RETENTION_MS = 60_000;

/** What {@link Wakeups} needs from its provider. @internal */
export interface WakeupsOptions {
  /** Safety-net poll interval of an idle fetch while notifications work, ms. */
  readonly idlePollIntervalMs: number;
  /** The caller's clock, epoch ms, the clock of `visible_at`. */
  readonly nowMs: () => number;
  /** Reads when the queue's delayed messages come due, for a fetch that looked at `sinceMs`. */
  readonly readDueTimes: (queue: WakeupQueue, sinceMs: number) => Promise<QueueDueTimes>;
  /** Makes the listening connection, reporting to the given callback. */
  readonly createListener: (signal: (signal: WakeupSignal) => void) => WakeupListener;
}

/** Taken just before a fetch attempt; the wait that follows is relative to it. @internal */
export interface FetchMark {
  readonly generation: number;
  /** The caller's clock when the attempt started, epoch ms. */
  readonly atMs: number;
}

interface Waiter {
  readonly queue: WakeupQueue;
  readonly wake: () => void;
}

/**
 * What an idle fetch waits for: a NOTIFY on its queue's channel (new work visible now), the
 * moment the earliest delayed message comes due (timers, delayed retries), or a slow safety-net
 * poll, whichever is first. Due times come from a database read at the start of each wait and
 * from this provider's own delayed writes. A fetch takes a {@link FetchMark} before it looks at
 * the queue, so a notification, or a message coming due, between its look and its wait still
 * wakes it.
 * @internal
 */
export class Wakeups {
  readonly #options: WakeupsOptions;
  readonly #generations: Record<WakeupQueue, number> = { orchestrator: 0, worker: 0 };
  /** Due times (epoch ms, ascending) announced by this provider's own writes. */
  readonly #noted: Record<WakeupQueue, number[]> = { orchestrator: [], worker: [] };
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

  /** A mark to take just before a fetch attempt on `queue`. */
  mark(queue: WakeupQueue): FetchMark {
    return { generation: this.#generations[queue], atMs: this.#options.nowMs() };
  }

  /** Notes that a message of `queue` becomes visible at `dueMs` (epoch ms). */
  noteDue(queue: WakeupQueue, dueMs: number): void {
    const nowMs = this.#options.nowMs();
    if (dueMs <= nowMs) return;
    const noted = this.#noted[queue].filter((t) => t > nowMs - NOTED_DUE_TIME_RETENTION_MS);
    if (!noted.includes(dueMs)) noted.push(dueMs);
    noted.sort((a, b) => a - b);
    this.#noted[queue] = noted.slice(0, MAX_NOTED_DUE_TIMES);
    // Waiters already asleep may have planned to wake later than this.
    this.#wakeWaiters((w) => w.queue === queue);
  }

  /**
   * Resolves when work may have appeared on `queue` since `mark`, when a delayed message comes
   * due, at the next safety-net poll, or at `deadline` (a `performance.now()` value), whichever
   * comes first; also at once when the provider closes.
   */
  async waitForWork(queue: WakeupQueue, mark: FetchMark, deadline: number): Promise<void> {
    if (this.#closed) return;
    const listener = this.#startListener();
    if (this.#generations[queue] !== mark.generation) return;
    const read = await this.#options.readDueTimes(queue, mark.atMs).catch(
      // Unknown until the next wait; the safety-net poll still runs, and a fetch that fails for
      // the same reason reports it to the caller.
      (): QueueDueTimes => ({ nextMs: null, dueSince: false }),
    );
    if (this.#closed || this.#generations[queue] !== mark.generation || read.dueSince) return;

    const nowMs = this.#options.nowMs();
    const noted = this.#noted[queue];
    if (noted.some((t) => t > mark.atMs && t <= nowMs)) return;
    const dueMs = Math.min(read.nextMs ?? Infinity, noted.find((t) => t > nowMs) ?? Infinity);

    const now = performance.now();
    const pollMs = listener.connected
      ? this.#options.idlePollIntervalMs
      : Math.min(this.#options.idlePollIntervalMs, FALLBACK_POLL_INTERVAL_MS);
    const wakeAt = Math.min(deadline, now + pollMs, now + (dueMs - nowMs));

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
}
