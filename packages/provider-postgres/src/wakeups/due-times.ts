import type { QueueDueTimes } from '../operations/read-queue-due-times.js';

/** How many due times this provider's own writes announced are kept per queue. */
const MAX_NOTED_DUE_TIMES = 256;

/** How long a noted due time is kept after it passed, ms: longer than any fetch attempt. */
const NOTED_DUE_TIME_RETENTION_MS = 60_000;

/**
 * How far back a read looks for messages that came due and are still unclaimed, ms. A fetch
 * attempt that started longer ago than this (it never does) simply looks again.
 */
const DUE_LOOKBACK_MS = 1_000;

/** What {@link QueueDueTimesCache} needs. @internal */
export interface DueTimesSource {
  /** The caller's clock, epoch ms, the clock of `visible_at`. */
  readonly nowMs: () => number;
  /** Reads when the queue's delayed messages come due, and which came due after `sinceMs`. */
  readonly read: (sinceMs: number) => Promise<QueueDueTimes>;
}

/**
 * When one queue's delayed messages (timers, delayed enqueues and abandons) come due, shared by
 * every idle fetch of the queue: one database read serves all of them until the next due time
 * it found passes or it is invalidated (by the safety-net poll, to find what other processes
 * scheduled, or when notifications may have been missed). Due times this provider's own writes
 * announce are added without a read.
 * @internal
 */
export class QueueDueTimesCache {
  readonly #source: DueTimesSource;
  #known: QueueDueTimes | null = null;
  #reading: Promise<QueueDueTimes | null> | null = null;
  /** Bumped by {@link invalidate}, so a read that started before does not refill the cache. */
  #version = 0;
  /** Due times (epoch ms, ascending) announced by this provider's own writes. */
  #noted: number[] = [];

  constructor(source: DueTimesSource) {
    this.#source = source;
  }

  /** Forgets what the last read found; the next {@link current} reads again. */
  invalidate(): void {
    this.#version++;
    this.#known = null;
    this.#reading = null;
  }

  /**
   * Notes that a message becomes visible at `dueMs` (epoch ms). A time that has already passed
   * is kept too: a fetch that looked before it (the message's own notification can wake one
   * early) learns from {@link cameDueSince} that it has to look again.
   */
  note(dueMs: number): void {
    const nowMs = this.#source.nowMs();
    const keptSinceMs = nowMs - NOTED_DUE_TIME_RETENTION_MS;
    if (dueMs <= keptSinceMs) return;
    const noted = this.#noted.filter((t) => t > keptSinceMs);
    if (!noted.includes(dueMs)) noted.push(dueMs);
    noted.sort((a, b) => a - b);
    // Over the bound, the oldest passed times go first, then the latest future ones.
    while (noted.length > MAX_NOTED_DUE_TIMES && (noted[0] ?? Infinity) <= nowMs) noted.shift();
    this.#noted = noted.slice(0, MAX_NOTED_DUE_TIMES);
  }

  /**
   * What the database says, read now unless an earlier read is still good (its next due time
   * has not passed); `null` when the read failed (the next call tries again).
   */
  async current(): Promise<QueueDueTimes | null> {
    const known = this.#known;
    if (known !== null && (known.nextMs === null || known.nextMs > this.#source.nowMs())) {
      return known;
    }
    this.#reading ??= this.#read();
    return this.#reading;
  }

  /**
   * Whether a message came due after a fetch looked at the queue at `markMs` (so that fetch
   * may have missed it), given what {@link current} returned.
   */
  cameDueSince(markMs: number, known: QueueDueTimes | null): boolean {
    const nowMs = this.#source.nowMs();
    if (this.#noted.some((t) => t > markMs && t <= nowMs)) return true;
    if (known === null) return false;
    if (markMs < known.sinceMs) return true;
    if (known.dueSince && markMs < known.readAtMs) return true;
    return known.nextMs !== null && known.nextMs > markMs && known.nextMs <= nowMs;
  }

  /** The next due time after now that is known, epoch ms, or `null`. */
  nextDueMs(known: QueueDueTimes | null): number | null {
    const nowMs = this.#source.nowMs();
    const fromRead = known?.nextMs != null && known.nextMs > nowMs ? known.nextMs : Infinity;
    const next = Math.min(fromRead, this.#noted.find((t) => t > nowMs) ?? Infinity);
    return next === Infinity ? null : next;
  }

  async #read(): Promise<QueueDueTimes | null> {
    const version = this.#version;
    const read = await this.#source.read(this.#source.nowMs() - DUE_LOOKBACK_MS).catch(
      // Unknown until the next wait; the safety-net poll still runs, and a fetch that fails for
      // the same reason reports it to the caller.
      () => null,
    );
    if (this.#version === version) {
      this.#known = read;
      this.#reading = null;
    }
    return read;
  }
}
