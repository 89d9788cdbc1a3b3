import type { FreezeWindow } from '../chaos/chaos-context.js';
import type { ClaimRecord } from '../observe/audit-records.js';
import { goneAtMs, type ClaimHold, type WorkerLife } from './claim-holds.js';
import type { StallBounds, StallEvidence } from './stall-evidence.js';

/** A claim's work and when it became runnable for its claimer, and why. */
export interface RunnableWork {
  readonly claim: ClaimRecord;
  readonly runnableSinceMs: number;
  /** The bound its idle wait is held to: announced or silent work's. */
  readonly boundMs: number;
  readonly why: string;
  /** A session activity claimed by another worker than the session's previous one. */
  readonly takeover: boolean;
}

/** Keys a claim's work: the instance for a turn, the message for an activity. */
function workKey(claim: ClaimRecord): string {
  return `${claim.schema}/${claim.queue}/${claim.queue === 'orchestrator' ? claim.instance : claim.messageKey}`;
}

/**
 * When each claim's work became runnable for its claimer, and why, in claim order (see
 * `checkNoStall` for the rules). Hand-offs (claimed as they were written), claims whose rows were
 * gone when they were recorded, and claims whose lease had run out by then are left out.
 */
export function runnableWork(
  holds: ReadonlyMap<string, ClaimHold>,
  evidence: StallEvidence,
  bounds: StallBounds,
): RunnableWork[] {
  const { lives, freezes } = evidence;
  const losses = claimLosses(evidence);
  const found: RunnableWork[] = [];
  const schemaOf = new Map([...holds.values()].map(({ claim }) => [claim.worker, claim.schema]));
  const claimedMessages = new Set<string>();
  const previousOfWork = new Map<string, ClaimHold>();
  const previousOfSession = new Map<string, ClaimHold>();
  const ordered = [...holds.values()].sort((a, b) => a.claim.claimedAtMs - b.claim.claimedAtMs);
  for (const hold of ordered) {
    const { claim } = hold;
    const key = workKey(claim);
    const sessionKey = claim.session === null ? null : `${claim.schema}/${claim.session}`;
    const previous = previousOfWork.get(key);
    const previousSession = sessionKey === null ? undefined : previousOfSession.get(sessionKey);
    previousOfWork.set(key, hold);
    if (sessionKey !== null) previousOfSession.set(sessionKey, hold);
    const messages = claim.messageKey.split(',').map((message) => `${claim.schema}/${message}`);
    const seenBefore = messages.some((message) => claimedMessages.has(message));
    for (const message of messages) claimedMessages.add(message);
    // A hand-off never waited; a claim whose lease had run out by the time it was recorded (its
    // answer reached a frozen worker) held nothing any more.
    const stale = claim.lockedUntilMs === null || claim.lockedUntilMs <= claim.claimedAtMs;
    if (claim.path === 'handoff' || claim.runnableAtMs === null || stale) continue;
    let runnableSinceMs = claim.runnableAtMs;
    let why = 'its message became visible';
    let silent = false;
    const takeover = previousSession !== undefined && previousSession.claim.worker !== claim.worker;
    if (previous !== undefined && previous.freeAtMs > runnableSinceMs) {
      runnableSinceMs = previous.freeAtMs;
      silent = previous.ending !== 'released';
      why = silent
        ? `${previous.claim.worker}'s lease on it ran out`
        : `${previous.claim.worker} released it`;
    }
    // A redelivery none of whose messages was seen claimed before was claimed by a fetch that
    // never returned: its worker died, lost its connections, or the server restarted between
    // the claim's commit and its answer. That lease ran out at most a lock timeout later.
    if (claim.attempt > 1 && !seenBefore) {
      const lockTimeoutMs =
        claim.queue === 'orchestrator'
          ? bounds.orchestratorLockTimeoutMs
          : bounds.workerLockTimeoutMs;
      const loss = latestLoss(losses, schemaOf, claim, runnableSinceMs - lockTimeoutMs);
      const freeAtMs =
        loss === undefined ? null : Math.min(loss.atMs + lockTimeoutMs, claim.claimedAtMs);
      if (loss !== undefined && freeAtMs !== null && freeAtMs > runnableSinceMs) {
        runnableSinceMs = freeAtMs;
        silent = true;
        why = `the lease of a claim that never reached a worker ran out (${loss.what})`;
      }
    }
    // A fetch that never returned may also have taken the session: its lock then ran out at
    // most a session lock timeout after the loss, unless that worker held it all along.
    if (claim.session !== null) {
      const loss = latestLoss(
        losses.filter((candidate) => candidate.worker !== claim.worker),
        schemaOf,
        claim,
        runnableSinceMs - bounds.sessionLockTimeoutMs,
      );
      const freeAtMs =
        loss === undefined
          ? null
          : Math.min(loss.atMs + bounds.sessionLockTimeoutMs, claim.claimedAtMs);
      if (loss !== undefined && freeAtMs !== null && freeAtMs > runnableSinceMs) {
        runnableSinceMs = freeAtMs;
        silent = true;
        why = `a session lock that a fetch which never returned may have taken ran out (${loss.what})`;
      }
    }
    if (takeover) {
      const freeAtMs = sessionFreeAtMs(previousSession, lives, freezes, bounds);
      if (freeAtMs > runnableSinceMs) {
        runnableSinceMs = freeAtMs;
        silent = true;
        why = `${previousSession.claim.worker}'s session lock ran out at the latest`;
      }
    }
    found.push({
      claim,
      runnableSinceMs,
      boundMs: silent ? bounds.silentMs : bounds.announcedMs,
      why,
      takeover,
    });
  }
  return found;
}

/** Something that can keep a committed claim from reaching its worker. */
interface ClaimLoss {
  /** The worker it struck, or `null` for every worker (a server restart). */
  readonly worker: string | null;
  readonly atMs: number;
  readonly what: string;
}

/**
 * Deaths, freezes, connection drops and server restarts, earliest first. (A fetch whose answer
 * reached a frozen worker is recorded only after it thaws, after the lease it held ran out.)
 */
function claimLosses(evidence: StallEvidence): ClaimLoss[] {
  return [
    ...evidence.freezes.map((freeze) => ({
      worker: freeze.worker,
      atMs: freeze.fromMs,
      what: `${freeze.worker} froze`,
    })),
    ...evidence.lives.flatMap((life) =>
      life.endedAtMs === null
        ? []
        : [{ worker: life.worker, atMs: life.endedAtMs, what: `${life.worker} exited` }],
    ),
    ...evidence.connectionDrops.map((drop) => ({
      worker: drop.worker,
      atMs: drop.atMs,
      what: `${drop.worker}'s connections were cut`,
    })),
    ...evidence.outages.map((outage) => ({
      worker: null,
      atMs: outage.fromMs,
      what: 'the server restarted',
    })),
  ].sort((a, b) => a.atMs - b.atMs);
}

/**
 * The latest loss at or after `fromMs` and before `claim` that could have struck a fetch of its
 * schema: one of a worker that claims in that schema (`schemaOf`), or of every worker.
 */
function latestLoss(
  losses: readonly ClaimLoss[],
  schemaOf: ReadonlyMap<string, string>,
  claim: ClaimRecord,
  fromMs: number,
): ClaimLoss | undefined {
  return losses
    .filter(
      (loss) =>
        loss.atMs >= fromMs &&
        loss.atMs <= claim.claimedAtMs &&
        (loss.worker === null || schemaOf.get(loss.worker) === claim.schema),
    )
    .at(-1);
}

/**
 * The latest moment `previous`'s worker still held the session: its death or freeze plus the
 * session lock timeout, or its last use of the session plus the idle and lock timeouts (a
 * session idle that long is no longer renewed).
 */
function sessionFreeAtMs(
  previous: ClaimHold,
  lives: readonly WorkerLife[],
  freezes: readonly FreezeWindow[],
  bounds: StallBounds,
): number {
  const idleRelease =
    Math.max(previous.freeAtMs, previous.claim.claimedAtMs) +
    bounds.sessionIdleTimeoutMs +
    bounds.sessionLockTimeoutMs;
  const gone = goneAtMs(previous.claim.worker, previous.claim.claimedAtMs, lives, freezes);
  return gone === null ? idleRelease : Math.min(idleRelease, gone + bounds.sessionLockTimeoutMs);
}
