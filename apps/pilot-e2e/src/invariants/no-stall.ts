import type { FreezeWindow } from '../chaos/chaos-context.js';
import type { AuditTrail, ClaimRecord } from '../observe/audit-records.js';
import type { SwarmConfig } from '../swarm-config.js';
import { claimHolds, goneAtMs, type ClaimHold, type WorkerLife } from './claim-holds.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';
import { IntervalUnion, type Interval } from './interval-union.js';

/** What the liveness check looks at besides the audit trail. */
export interface StallEvidence {
  readonly audit: AuditTrail;
  readonly lives: readonly WorkerLife[];
  readonly freezes: readonly FreezeWindow[];
  /** Spans during which the database server was down (restarts). */
  readonly outages: readonly Interval[];
  /** When each worker had its connections cut (`pg_terminate_backend`), epoch ms. */
  readonly connectionDrops: readonly { readonly worker: string; readonly atMs: number }[];
}

/** The settings the bounds follow from (see {@link stallBounds}), ms. */
export interface StallBounds {
  /** Bound on the idle wait of work whose arrival the queue announced. */
  readonly announcedMs: number;
  /** Bound on the idle wait of work freed silently (a lease or a session lock running out). */
  readonly silentMs: number;
  readonly sessionLockTimeoutMs: number;
  readonly sessionIdleTimeoutMs: number;
  readonly orchestratorLockTimeoutMs: number;
  readonly workerLockTimeoutMs: number;
}

/**
 * How long a holder's last records may take to reach the audit log after its lease ran out
 * before an unfinished claim counts as lost rather than as the holder's death: two flushes and
 * their round trips, ms.
 */
const LOST_CLAIM_GRACE_MS = 1_000;

/** How many of the longest waits a passing result still names. */
const WORST_LISTED = 3;

/**
 * The bounds a run's configuration implies. Work the queue announces (a new message, an
 * acknowledgement or abandon that frees an instance, a delayed message coming due) wakes an idle
 * fetch at once, which then claims it within one dispatcher poll interval; work freed silently
 * (an expired lease, a session lock that ran out) is noticed by the provider's safety-net poll,
 * up to `idlePollIntervalMs` later. `allowanceMs` is one claim's round trip on a busy machine.
 */
export function stallBounds(config: SwarmConfig): StallBounds {
  const { runtime, limits } = config;
  const announcedMs = runtime.dispatcherPollIntervalMs + limits.claimAllowanceMs;
  return {
    announcedMs,
    silentMs: announcedMs + runtime.idlePollIntervalMs,
    sessionLockTimeoutMs: runtime.sessionLockTimeoutMs,
    sessionIdleTimeoutMs: runtime.sessionIdleTimeoutMs,
    orchestratorLockTimeoutMs: runtime.orchestratorLockTimeoutMs,
    workerLockTimeoutMs: runtime.workerLockTimeoutMs,
  };
}

/** One judged claim: how long its work waited while a worker that could take it was idle. */
interface JudgedWait {
  readonly claim: ClaimRecord;
  readonly runnableSinceMs: number;
  readonly idleMs: number;
  /** The part of `idleMs` that only the claiming fetch itself covers (it was in flight). */
  readonly ownFetchMs: number;
  readonly boundMs: number;
  readonly why: string;
  /** A session activity claimed by another worker than the session's previous one. */
  readonly takeover: boolean;
}

/** A claim's work and when it became runnable, before its idle wait is measured. */
type RunnableWork = Omit<JudgedWait, 'idleMs' | 'ownFetchMs'>;

function describe(wait: JudgedWait): string {
  const { claim } = wait;
  const what =
    claim.queue === 'orchestrator'
      ? 'turn'
      : claim.session === null
        ? 'activity'
        : `session activity (session ${claim.session})`;
  return `${claim.schema}/${claim.instance} ${what} waited ${Math.round(
    claim.claimedAtMs - wait.runnableSinceMs,
  )} ms until ${claim.worker} claimed it, ${Math.round(wait.idleMs)} ms of it while a worker with room was idle (${Math.round(wait.ownFetchMs)} ms only in the claiming fetch, which took ${claim.claimedAtMs - claim.fetchStartedAtMs} ms; bound ${wait.boundMs} ms, runnable since ${wait.why})`;
}

/** Keys a claim's work: the instance for a turn, the message for an activity. */
function workKey(claim: ClaimRecord): string {
  return `${claim.schema}/${claim.queue}/${claim.queue === 'orchestrator' ? claim.instance : claim.messageKey}`;
}

/**
 * Liveness: work that could run did not wait while a worker with room sat idle. Two things are
 * judged from the audit trail:
 *
 * - every claim made by a worker that lived on past its lease ended with an acknowledgement or
 *   an abandon: one that did neither was lost, and its work waited for the lease to run out;
 * - for every claim, the time from when its work became runnable until the claim, during which
 *   a worker that could have taken it had a fetch waiting for work (room it asked for), stayed
 *   within the bound: {@link StallBounds.announcedMs} when its arrival was announced,
 *   {@link StallBounds.silentMs} when it was freed silently.
 *
 * Work becomes runnable at the latest of: its rows' visibility (`visible_at`, `created_at`),
 * the end of the previous hold on it (the release, or the lease's end), and, for a session
 * activity whose session another worker held, when that worker's session lock ran out at the
 * latest (its death or freeze plus the session lock timeout, or its last use of the session plus
 * the idle and lock timeouts). A claim that never reached its worker (the worker died, lost its
 * connections, froze, or the server restarted between the claim's commit and its answer) goes
 * unrecorded (or is recorded only after the freeze); a redelivery of work never seen claimed is taken to have waited for such a lease
 * (a lock timeout after the latest such loss), and a session activity for such a session lock
 * (a session lock timeout after a loss of another worker). A turn or a session-free activity can go to any worker of its
 * schema; a session activity only to the worker that claimed it (fetches routing sessions).
 * Fetch waits of a frozen worker and while the database was down do not count as idle.
 */
export function checkNoStall(evidence: StallEvidence, bounds: StallBounds): InvariantResult {
  const { audit: trail, lives, freezes, outages } = evidence;
  const holds = claimHolds(trail.claims, trail.lockEvents);
  const lifeOf = new Map(lives.map((life) => [life.pid, life]));
  const violations: string[] = [];

  let lost = 0;
  for (const hold of holds.values()) {
    if (hold.ending !== null) continue;
    const { claim } = hold;
    const life = lifeOf.get(claim.life);
    if (life === undefined) continue;
    // The runtime had the claim from when the observer let go of it; a holder that died or froze
    // before its lease (and the grace for its last records) ran out is excused.
    // Records buffered while the server was down reach the audit log only once it is back.
    const heldUntilMs = Math.max(hold.leaseEndMs, claim.observedAtMs);
    const blockedUntilMs = Math.max(
      heldUntilMs,
      ...outages
        .filter((outage) => outage.fromMs <= heldUntilMs && outage.toMs >= claim.claimedAtMs)
        .map((outage) => outage.toMs),
    );
    const dueMs = blockedUntilMs + LOST_CLAIM_GRACE_MS;
    const gone = goneAtMs(
      claim.worker,
      claim.claimedAtMs,
      [life],
      freezes.filter((freeze) => freeze.toMs >= claim.claimedAtMs),
    );
    if (gone !== null && gone <= dueMs) continue;
    lost += 1;
    violations.push(
      `${claim.worker} (pid ${claim.life}, alive until ${life.endedAtMs === null ? 'the end' : new Date(life.endedAtMs).toISOString()}) claimed ${claim.schema}/${claim.instance} ${claim.queue === 'orchestrator' ? 'turn' : `activity ${claim.messageKey}`}${claim.session === null ? '' : ` of session ${claim.session}`} and neither acknowledged nor abandoned it: its work waited for the lease to run out (${Math.round(hold.leaseEndMs - claim.claimedAtMs)} ms)`,
    );
  }

  const runnable = runnableSince(holds, lives, freezes, claimLosses(evidence), bounds);
  const idle = idleUnions(trail, freezes, outages);
  const judged: JudgedWait[] = [];
  for (const wait of runnable) {
    const { claim } = wait;
    const eligible =
      claim.queue === 'worker' && claim.session !== null
        ? idle.routing.get(`${claim.schema}/${claim.worker}`)
        : idle.any.get(`${claim.schema}/${claim.queue}`);
    // The claiming fetch itself, when it had to wait for its work (none of what it took was
    // visible when it started), was in flight while the work was runnable: idle room too (a
    // wake-up that came late). A fetch that found work at once spent its time claiming.
    const waitedForWork =
      (idle.busyFrom.get(fetchKey(claim.worker, claim.life, claim.queue, claim.fetchStartedAtMs)) ??
        claim.fetchStartedAtMs) > claim.fetchStartedAtMs;
    const own = waitedForWork
      ? IntervalUnion.of([{ fromMs: claim.fetchStartedAtMs, toMs: claim.claimedAtMs }])
          .without([...freezes.filter((freeze) => freeze.worker === claim.worker), ...outages])
          .intervals()
      : [];
    const others = eligible?.within(wait.runnableSinceMs, claim.claimedAtMs) ?? [];
    const idleMs = IntervalUnion.of([...others, ...own]).coveredMs(
      wait.runnableSinceMs,
      claim.claimedAtMs,
    );
    const othersMs = IntervalUnion.of(others).coveredMs(wait.runnableSinceMs, claim.claimedAtMs);
    judged.push({ ...wait, idleMs, ownFetchMs: idleMs - othersMs });
  }
  const unjudged =
    holds.size - judged.length - trail.claims.filter((c) => c.path === 'handoff').length;

  const stalled = judged
    .filter((wait) => wait.idleMs > wait.boundMs)
    .sort((a, b) => b.idleMs - b.boundMs - (a.idleMs - a.boundMs));
  violations.push(...stalled.map(describe));
  if (judged.length === 0) violations.push('no claim could be judged: the check saw nothing');
  if (trail.waits.length === 0)
    violations.push('no fetch wait was recorded: idle room was not observed');
  const worst = [...judged].sort((a, b) => b.idleMs - a.idleMs).slice(0, WORST_LISTED);
  const worstFigures: Record<string, string> = {};
  worst.forEach((wait, index) => {
    worstFigures[`worst${index + 1}`] = describe(wait);
  });
  const longest = worst[0];
  return invariantResult(
    'no-stall',
    `${judged.length} claims judged, longest idle wait ${Math.round(longest?.idleMs ?? 0)} ms${
      longest === undefined ? '' : ` (${longest.claim.schema}/${longest.claim.instance})`
    } (bounds ${bounds.announcedMs} / ${bounds.silentMs} ms), ${stalled.length} over, ${lost} claims lost`,
    {
      judged: judged.length,
      unjudged,
      lostClaims: lost,
      sessionTakeovers: judged.filter((wait) => wait.takeover).length,
      overBound: stalled.length,
      longestIdleMs: Math.round(longest?.idleMs ?? 0),
      boundAnnouncedMs: bounds.announcedMs,
      boundSilentMs: bounds.silentMs,
      ...worstFigures,
    },
    violations,
  );
}

/**
 * When each claim's work became runnable for its claimer, and why, in claim order: see
 * {@link checkNoStall}. Hand-offs (claimed as they were written) and claims whose rows were gone
 * when they were recorded are left out.
 */
function runnableSince(
  holds: ReadonlyMap<string, ClaimHold>,
  lives: readonly WorkerLife[],
  freezes: readonly FreezeWindow[],
  losses: readonly ClaimLoss[],
  bounds: StallBounds,
): RunnableWork[] {
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

/** Identifies one fetch call of one worker life (its claims carry its start). */
function fetchKey(worker: string, life: number, queue: string, startedAtMs: number): string {
  return `${worker}/${life}/${queue}/${startedAtMs}`;
}

/**
 * When workers had room and waited for work: per schema and queue over all workers, and per
 * worker over its fetches that could take session-bound activities; and, per fetch (see
 * {@link fetchKey}), when the earliest work it took became visible. A fetch that returned work
 * counts only until its own work became visible (from then on it was busy claiming it, and a
 * fetch that takes older work first is no stall); one whose claims went unrecorded not at all.
 * Frozen workers and a database that was down are cut out.
 */
function idleUnions(
  trail: AuditTrail,
  freezes: readonly FreezeWindow[],
  outages: readonly Interval[],
): {
  any: Map<string, IntervalUnion>;
  routing: Map<string, IntervalUnion>;
  busyFrom: Map<string, number>;
} {
  // The visibility the rows themselves record: the estimates of when work became runnable for
  // its claimer err late, which must not make a fetch that took older work look idle.
  const busyFrom = new Map<string, number>();
  for (const claim of trail.claims) {
    const key = fetchKey(claim.worker, claim.life, claim.queue, claim.fetchStartedAtMs);
    const visibleAtMs = claim.runnableAtMs ?? claim.fetchStartedAtMs;
    busyFrom.set(key, Math.min(busyFrom.get(key) ?? Infinity, visibleAtMs));
  }
  const anyWaits = new Map<string, Interval[]>();
  const routingWaits = new Map<string, Interval[]>();
  const frozen = new Map<string, Interval[]>();
  for (const freeze of freezes) {
    frozen.set(freeze.worker, [...(frozen.get(freeze.worker) ?? []), freeze]);
  }
  for (const wait of trail.waits) {
    const holes = [...(frozen.get(wait.worker) ?? []), ...outages];
    const toMs =
      wait.returned === 0
        ? wait.toMs
        : Math.min(
            wait.toMs,
            busyFrom.get(fetchKey(wait.worker, wait.life, wait.queue, wait.fromMs)) ?? wait.fromMs,
          );
    const pieces = IntervalUnion.of([{ fromMs: wait.fromMs, toMs }]).without(holes);
    const key = `${wait.schema}/${wait.queue}`;
    const list = anyWaits.get(key) ?? [];
    list.push(...pieces.intervals());
    anyWaits.set(key, list);
    if (wait.queue === 'worker' && wait.sessionRouting) {
      const own = `${wait.schema}/${wait.worker}`;
      const routed = routingWaits.get(own) ?? [];
      routed.push(...pieces.intervals());
      routingWaits.set(own, routed);
    }
  }
  const unite = (map: Map<string, Interval[]>) =>
    new Map([...map].map(([key, intervals]) => [key, IntervalUnion.of(intervals)]));
  return { any: unite(anyWaits), routing: unite(routingWaits), busyFrom };
}
