import { QueueDueTimesCache } from './due-times.js';
import type { QueueDueTimes } from '../operations/read-queue-due-times.js';
import { QueueWaiters, type Waiter, type WaitScope } from './queue-waiters.js';
import type { WakeupQueue } from '../wakeup-channel.js';
import type { WakeupListener, WakeupSignal } from './wakeup-listener.js';

/** How often a queue with idle fetches is polled while the listening connection is down, ms. */
const FALLBACK_POLL_INTERVAL_MS = 100;

/**
 * How old another fetch's emptying look may be for a long poll to wait from it, caller's clock
 * ms.
 */
const RECENT_LOOK_MS = 1_000;

/** What {@link Wakeups} needs from its provider. @internal */
export interface WakeupsOptions {
  /** Safety-net poll interval of a queue with idle fetches while notifications work, ms. */
  readonly idlePollIntervalMs: number;
  /** The caller's clock, epoch ms, the clock of `visible_at`. */
  readonly nowMs: () => number;
  /** Reads when the queue's delayed messages come due, and which came due after `sinceMs`. */
  readonly readDueTimes: (queue: WakeupQueue, sinceMs: number) => Promise<QueueDueTimes>;
  /** Makes the listening connection, reporting to the given callback. */
  readonly createListener: (signal: (signal: WakeupSignal) => void) => WakeupListener;
}

/** Taken just before a fetch attempt; the wait that follows is relative to it. @internal */
export interface FetchMark {
  /** Counts the times every fetch was told to look again (notifications may have been lost). */
  readonly generation: number;
  /** The number of the last wake-up (notification or claim) before the attempt. */
  readonly wakeups: number;
  /** The caller's clock when the attempt started, epoch ms. */
  readonly atMs: number;
}

/** The timers and waiting fetches of one queue. */
interface QueueState {
  readonly waiters: QueueWaiters;
  /** Per scope key, the mark of the latest attempt that found nothing more to claim. */
  readonly emptyingLooks: Map<string, FetchMark>;
  readonly dueTimes: QueueDueTimesCache;
  poll: NodeJS.Timeout | null;
  due: { readonly atMs: number; readonly timer: NodeJS.Timeout } | null;
}

/**
 * What an idle fetch waits for, shared by all idle fetches of a provider so that waiting costs
 * the database (almost) nothing however many fetches wait:
 *
 * - a NOTIFY on the queue's channel wakes one waiting fetch per scope (see {@link WaitScope}),
 *   and a fetch that claims as much as it could take wakes the next one ({@link claimed}), so a
 *   burst spreads across the fetches one claim at a time and an empty notification costs one
 *   fetch; a fetch that found nothing more to claim ({@link emptied}) lets the next long poll
 *   wait without looking first;
 * - the earliest delayed message of the queue coming due wakes one fetch per scope; the due
 *   times come from one read per queue, shared and kept until the next one passes, from this
 *   provider's own delayed writes ({@link noteDue}), and from the notifications that announce
 *   delayed messages any process writes (duro migration 13);
 * - one safety-net poll per queue (every `idlePollIntervalMs`, or 100 ms while the listening
 *   connection is down) wakes one fetch per scope and refreshes the due times, for work that
 *   came without a notification (expired locks, delayed messages other processes wrote).
 *
 * A fetch takes a {@link FetchMark} before it looks at the queue; a wake-up that finds no fetch
 * of its scope waiting is left for the next one to wait, and a message that came due after the
 * mark ends the wait at once, so nothing that arrives between a fetch's look and its wait is
 * missed.
 * @internal
 */
export class Wakeups {
  readonly #options: WakeupsOptions;
  #generation = 0;
  /** Numbers the notifications and claims, for {@link QueueWaiters.takePending}. */
  #wakeupCount = 0;
  readonly #queues: Record<WakeupQueue, QueueState>;
  #listener: WakeupListener | null = null;
  #closed = false;

  constructor(options: WakeupsOptions) {
    this.#options = options;
    const queueState = (queue: WakeupQueue): QueueState => ({
      waiters: new QueueWaiters(),
      emptyingLooks: new Map(),
      dueTimes: new QueueDueTimesCache({
        nowMs: options.nowMs,
        read: (sinceMs) => options.readDueTimes(queue, sinceMs),
      }),
      poll: null,
      due: null,
    });
    this.#queues = { orchestrator: queueState('orchestrator'), worker: queueState('worker') };
  }

  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** A mark to take just before a fetch attempt. */
  mark(): FetchMark {
    return {
      generation: this.#generation,
      wakeups: this.#wakeupCount,
      atMs: this.#options.nowMs(),
    };
  }

  /**
   * Notes that a fetch of `scope` that took `mark` found nothing more to claim: nothing at all,
   * or fewer items than it could take.
   */
  emptied(queue: WakeupQueue, scope: WaitScope, mark: FetchMark): void {
    const state = this.#queues[queue];
    // A fetch that waits from this look must hear what was announced after it.
    state.waiters.keepWakeupsOf(scope.key);
    const looks = state.emptyingLooks;
    if ((looks.get(scope.key)?.atMs ?? -Infinity) < mark.atMs) looks.set(scope.key, mark);
  }

  /**
   * The mark of another fetch's recent look at `queue` that found nothing more to claim for
   * `scope` (see {@link emptied}): a new long poll can wait from that mark instead of looking
   * again, since whatever was announced after it either woke a waiting fetch, which looks, or
   * was left pending, which ends the wait at once (as does a due time or a lost listener since).
   * `null` when the fetch should look: the listener is down, the scope does not share looks, or
   * no recent look emptied the queue.
   */
  recentEmptyingLook(queue: WakeupQueue, scope: WaitScope): FetchMark | null {
    if (!scope.sharesLooks || this.#listener?.connected !== true) return null;
    const look = this.#queues[queue].emptyingLooks.get(scope.key);
    if (look === undefined || look.atMs < this.#options.nowMs() - RECENT_LOOK_MS) return null;
    return look;
  }

  /** Notes that a message of `queue` becomes visible at `dueMs` (epoch ms). */
  noteDue(queue: WakeupQueue, dueMs: number): void {
    const state = this.#queues[queue];
    state.dueTimes.note(dueMs);
    if (!state.waiters.isEmpty) this.#armDue(queue, dueMs);
  }

  /**
   * A fetch of `scope` claimed as much as it could take: more may be waiting, so the next fetch
   * looks.
   */
  claimed(queue: WakeupQueue, scope: WaitScope): void {
    this.#queues[queue].waiters.wakeNext(scope.key, ++this.#wakeupCount);
  }

  /** Wakes a fetch of session owner `owner`, for a message of a session that owner holds. */
  wakeSessionOwner(queue: WakeupQueue, owner: string): void {
    this.#queues[queue].waiters.wakeSessionOwner(owner);
  }

  /**
   * Resolves when work may have appeared on `queue` for `scope` since `mark`, or at `deadline`
   * (a `performance.now()` value), or when `cancel` resolves, whichever comes first; also at once
   * when the provider closes. A cancelled wait takes no wake-up from the fetches still waiting,
   * and resolves with `cancelled`; any other end with `ended`.
   */
  async waitForWork(
    queue: WakeupQueue,
    scope: WaitScope,
    mark: FetchMark,
    deadline: number,
    cancel?: Promise<unknown>,
  ): Promise<'cancelled' | 'ended'> {
    if (this.#closed) return 'ended';
    const listener = this.#startListener();
    const state = this.#queues[queue];
    const lookAgain = (): boolean =>
      this.#closed ||
      this.#generation !== mark.generation ||
      state.waiters.takePending(scope.key, mark.wakeups);
    if (lookAgain()) return 'ended';
    const known = await state.dueTimes.current();
    if (lookAgain() || state.dueTimes.cameDueSince(mark.atMs, known)) return 'ended';

    return new Promise<'cancelled' | 'ended'>((resolve) => {
      const waiter: Waiter = {
        scope,
        wake: () => {
          clearTimeout(timer);
          resolve('ended');
        },
      };
      const timer = setTimeout(
        () => {
          state.waiters.remove(waiter);
          resolve('ended');
        },
        Math.max(0, deadline - performance.now()),
      );
      // A waiting fetch does not keep the process alive: a started runtime does that itself,
      // and a fetch left waiting after its runtime shut down must not hold the process open.
      timer.unref();
      state.waiters.add(waiter);
      void cancel?.then(() => {
        clearTimeout(timer);
        state.waiters.remove(waiter);
        resolve('cancelled');
      });
      this.#armPoll(queue, listener);
      const dueMs = state.dueTimes.nextDueMs(known);
      if (dueMs !== null) this.#armDue(queue, dueMs);
    });
  }

  /** Wakes every waiter and stops listening; later waits return at once. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const state of Object.values(this.#queues)) {
      if (state.poll !== null) clearTimeout(state.poll);
      if (state.due !== null) clearTimeout(state.due.timer);
      state.poll = null;
      state.due = null;
      state.waiters.wakeAll();
    }
    await this.#listener?.close();
  }

  #startListener(): WakeupListener {
    this.#listener ??= this.#options.createListener((signal) => this.#onSignal(signal));
    this.#listener.start();
    return this.#listener;
  }

  #onSignal(signal: WakeupSignal): void {
    if (typeof signal === 'object') {
      this.noteDue(signal.queue, signal.dueMs);
      return;
    }
    if (signal !== 'all') {
      this.#queues[signal].waiters.wakeOnePerScope(++this.#wakeupCount);
      return;
    }
    // Notifications may have been missed, and the poll interval depends on the connection.
    this.#generation++;
    for (const state of Object.values(this.#queues)) {
      if (state.poll !== null) clearTimeout(state.poll);
      state.poll = null;
      state.waiters.wakeAll();
    }
  }

  #armPoll(queue: WakeupQueue, listener: WakeupListener): void {
    const state = this.#queues[queue];
    if (state.poll !== null || this.#closed) return;
    const intervalMs = listener.connected
      ? this.#options.idlePollIntervalMs
      : Math.min(this.#options.idlePollIntervalMs, FALLBACK_POLL_INTERVAL_MS);
    state.poll = setTimeout(() => {
      state.poll = null;
      state.dueTimes.invalidate();
      state.waiters.wakeOnePerScope(null);
      if (!state.waiters.isEmpty) this.#armPoll(queue, listener);
    }, intervalMs);
    state.poll.unref();
  }

  #armDue(queue: WakeupQueue, dueMs: number): void {
    const state = this.#queues[queue];
    if (this.#closed || (state.due !== null && state.due.atMs <= dueMs)) return;
    if (state.due !== null) clearTimeout(state.due.timer);
    const timer = setTimeout(
      () => {
        state.due = null;
        state.waiters.wakeOnePerScope(null);
      },
      Math.max(0, dueMs - this.#options.nowMs()),
    );
    timer.unref();
    state.due = { atMs: dueMs, timer };
  }
}
