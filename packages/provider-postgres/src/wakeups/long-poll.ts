import type { WaitScope } from './queue-waiters.js';
import type { WakeupQueue } from '../wakeup-channel.js';
import type { Wakeups } from './wakeups.js';

/**
 * What a fetch attempt claimed. `foundNoMore` says it claimed fewer items than it could take, so
 * it saw nothing more to claim, as a look that finds nothing (see {@link Wakeups.emptied}).
 * @internal
 */
export interface Claimed<T> {
  readonly value: T;
  readonly foundNoMore: boolean;
}

/**
 * One fetch attempt: what it claimed, `null` when there was nothing, or `retry` when the attempt
 * made progress without claiming anything (it dropped orphan messages) and should be repeated
 * at once.
 * @internal
 */
export type FetchAttempt<T> = Claimed<T> | null | 'retry';

/**
 * Lets work claimed elsewhere in the provider go to a fetch while it waits (see
 * `IdleTurnFetches`): `offer` is called as the fetch starts waiting, and the fetch returns what
 * `handed` resolves with, unless `withdraw` (called when the wait ends otherwise) says the offer
 * was still open. A handoff that brought nothing (`null`) lets the fetch wait on.
 * @internal
 */
export interface WaitingHandoff<T> {
  offer(): { readonly handed: Promise<T | null>; readonly withdraw: () => boolean };
}

/** Orphan drops one call repeats before it returns, so a flood of them cannot hold a caller. */
const MAX_IMMEDIATE_RETRIES = 10;

/**
 * Fetches from `queue` until something is claimed or `pollTimeoutMs` has passed. With a poll
 * timeout of 0 (or less) it tries once and returns, like duroxide-pg. Otherwise, between
 * attempts it waits for a wake-up (see {@link Wakeups}) and returns `null` no earlier than the
 * timeout and no later than the timeout plus one attempt. A wait cut short by the provider
 * closing returns `null`. A claim that may have left more wakes the next idle fetch of the same
 * `scope`. A long poll may skip its first look when another fetch of its scope just found nothing
 * more to claim and nothing was announced since (see {@link Wakeups.recentEmptyingLook}). While
 * it waits, `handoff` may hand it work claimed elsewhere, which it returns (a handoff of nothing
 * lets it wait on).
 * @internal
 */
export async function pollForWork<T>(
  wakeups: Wakeups,
  queue: WakeupQueue,
  scope: WaitScope,
  pollTimeoutMs: number,
  attempt: () => Promise<FetchAttempt<T>>,
  handoff?: WaitingHandoff<T>,
): Promise<T | null> {
  const deadline = performance.now() + Math.max(0, pollTimeoutMs);
  let immediateRetries = 0;
  // A long poll that arrives just after another fetch of its scope found nothing more to claim,
  // with nothing announced since, waits as if it had looked itself.
  let mark = pollTimeoutMs > 0 ? wakeups.recentEmptyingLook(queue, scope) : null;
  for (;;) {
    if (mark === null) {
      mark = wakeups.mark();
      const found = await attempt();
      if (found === 'retry' && immediateRetries < MAX_IMMEDIATE_RETRIES) {
        immediateRetries++;
        mark = null;
        continue;
      }
      if (found !== null && found !== 'retry') {
        if (found.foundNoMore) wakeups.emptied(queue, scope, mark);
        else wakeups.claimed(queue, scope);
        return found.value;
      }
      if (found === null) wakeups.emptied(queue, scope, mark);
    }
    if (performance.now() >= deadline) return null;
    const offer = handoff?.offer();
    const ended = await wakeups.waitForWork(queue, scope, mark, deadline, offer?.handed);
    if (offer !== undefined && !offer.withdraw()) {
      const handed = await offer.handed;
      if (handed !== null) return handed;
      // Handed nothing before any wake-up came: wait on from the same mark, so that the fetch
      // looks when the notification of what was committed meanwhile arrives, as it would have.
      if (ended === 'cancelled') continue;
    }
    mark = null;
    if (wakeups.closed || performance.now() >= deadline) return null;
  }
}
