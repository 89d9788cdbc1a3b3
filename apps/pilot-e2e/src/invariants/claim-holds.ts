import type { ClaimRecord, LockEvent } from '../observe/audit-records.js';

/** How one claim's hold on its work ended, as far as the audit trail tells. */
export interface ClaimHold {
  readonly claim: ClaimRecord;
  /** The latest the lease could have lasted: its end at the claim, or the last renewal's. */
  readonly leaseEndMs: number;
  /**
   * What ended the hold: an acknowledgement that committed or an abandon (both notify the
   * queue), or nothing the holder could rely on (a failed acknowledgement or abandon), after
   * which the work was free once the lease ran out; `null` when no event of the holder was seen.
   */
  readonly ending: 'released' | 'lapsed' | null;
  /** When the work was free again: the release, else the lease's end. */
  readonly freeAtMs: number;
}

/** A worker process's life, epoch ms. */
export interface WorkerLife {
  readonly worker: string;
  /** Its process id, as the audit trail's `life`. */
  readonly pid: number;
  readonly startedAtMs: number;
  /** `null` while it still ran at the end of the run. */
  readonly endedAtMs: number | null;
}

/** Each claim's hold, keyed by lock token. */
export function claimHolds(
  claims: readonly ClaimRecord[],
  events: readonly LockEvent[],
): Map<string, ClaimHold> {
  const byToken = new Map<string, LockEvent[]>();
  for (const event of events) {
    const list = byToken.get(event.lockToken) ?? [];
    list.push(event);
    byToken.set(event.lockToken, list);
  }
  const holds = new Map<string, ClaimHold>();
  for (const claim of claims) {
    const own = byToken.get(claim.lockToken) ?? [];
    const leaseEndMs = Math.max(
      claim.lockedUntilMs ?? claim.claimedAtMs,
      ...own.map((event) => event.lockedUntilMs ?? 0),
    );
    const release = own.find((event) => event.kind === 'ack' || event.kind === 'abandon');
    const failed = own.some((event) => event.kind !== 'renew');
    holds.set(claim.lockToken, {
      claim,
      leaseEndMs,
      ending: release !== undefined ? 'released' : failed ? 'lapsed' : null,
      freeAtMs: release?.atMs ?? leaseEndMs,
    });
  }
  return holds;
}

/**
 * When `worker` was gone (one of `lives` ended, or it froze) at or after `afterMs`, if it was; a
 * freeze that began before `afterMs` and lasted past it counts from `afterMs`.
 */
export function goneAtMs(
  worker: string,
  afterMs: number,
  lives: readonly WorkerLife[],
  freezes: readonly { readonly worker: string; readonly fromMs: number; readonly toMs: number }[],
): number | null {
  const times = [
    ...lives
      .filter(
        (life) => life.worker === worker && life.endedAtMs !== null && life.endedAtMs >= afterMs,
      )
      .map((life) => life.endedAtMs ?? Infinity),
    ...freezes
      .filter((freeze) => freeze.worker === worker && freeze.toMs >= afterMs)
      .map((freeze) => Math.max(freeze.fromMs, afterMs)),
  ];
  return times.length === 0 ? null : Math.min(...times);
}
