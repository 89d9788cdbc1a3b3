import type { ClaimRecord } from '../observe/audit-records.js';
import { claimHolds, goneAtMs, type ClaimHold } from './claim-holds.js';
import { fetchKey, idleRoom } from './idle-room.js';
import { IntervalUnion } from './interval-union.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';
import { runnableWork, type RunnableWork } from './runnable-work.js';
import type { StallBounds, StallEvidence } from './stall-evidence.js';

/**
 * How long a holder's last records may take to reach the audit log after its lease ran out
 * before an unfinished claim counts as lost rather than as the holder's death: two flushes and
 * their round trips, ms.
 */
const LOST_CLAIM_GRACE_MS = 1_000;

/** How many of the longest waits a passing result still names. */
const WORST_LISTED = 3;

/** One judged claim: how long its work waited while a worker that could take it was idle. */
interface JudgedWait extends RunnableWork {
  /** When the claim statement was sent (see {@link claimSentAtMs}), epoch ms. */
  readonly sentAtMs: number;
  readonly idleMs: number;
  /** The part of `idleMs` that only the claiming fetch itself covers (it was in flight). */
  readonly ownFetchMs: number;
}

/**
 * When the claim's statement was sent, epoch ms: the provider starts a lease at its clock's
 * reading as it sends the statement, so the lease's end less its length, within the fetch. From
 * then on the work was being claimed, not waiting; the statement's own round trip (its commit,
 * a server busy after a crash) is the store's latency, which the lease itself pays for and
 * `no-expired-lease` judges.
 */
export function claimSentAtMs(claim: ClaimRecord): number {
  if (claim.lockedUntilMs === null) return claim.claimedAtMs;
  const sentAtMs = claim.lockedUntilMs - claim.lockTimeoutMs;
  return Math.min(Math.max(sentAtMs, claim.fetchStartedAtMs), claim.claimedAtMs);
}

function describe(wait: JudgedWait): string {
  const { claim } = wait;
  const what =
    claim.queue === 'orchestrator'
      ? 'turn'
      : claim.session === null
        ? 'activity'
        : `session activity (session ${claim.session})`;
  return `${claim.schema}/${claim.instance} ${what} waited ${Math.round(
    wait.sentAtMs - wait.runnableSinceMs,
  )} ms until ${claim.worker} claimed it at ${new Date(wait.sentAtMs).toISOString()}, ${Math.round(wait.idleMs)} ms of it while a worker with room was idle (${Math.round(wait.ownFetchMs)} ms only in the claiming fetch, which took ${wait.sentAtMs - claim.fetchStartedAtMs} ms to send its claim and ${claim.claimedAtMs - wait.sentAtMs} ms more to return; bound ${wait.boundMs} ms, runnable since ${wait.why})`;
}

/**
 * Liveness: work that could run did not wait while a worker with room sat idle. Two things are
 * judged from the audit trail:
 *
 * - every claim made by a worker that lived on past its lease ended with an acknowledgement or
 *   an abandon: one that did neither was lost, and its work waited for the lease to run out;
 * - for every claim, the time from when its work became runnable until the claim was sent
 *   ({@link claimSentAtMs}), during which a worker that could have taken it had a fetch waiting
 *   for work (room it asked for), stayed
 *   within the bound: {@link StallBounds.announcedMs} when its arrival was announced,
 *   {@link StallBounds.silentMs} when it was freed silently.
 *
 * Work becomes runnable at the latest of: its rows' visibility (`visible_at`, `created_at`),
 * the end of the previous hold on it (the release, or the lease's end), and, for a session
 * activity whose session another worker held, when that worker's session lock ran out at the
 * latest (its death or freeze plus the session lock timeout, or its last use of the session plus
 * the idle and lock timeouts). A claim that never reached its worker (the worker died, lost its
 * connections, froze, or the server restarted between the claim's commit and its answer) goes
 * unrecorded (or is recorded only after the freeze); a redelivery of work never seen claimed is
 * taken to have waited for such a lease (a lock timeout after the latest such loss), and a
 * session activity for such a session lock (a session lock timeout after a loss of another
 * worker). A turn or a session-free activity can go to any worker of its schema; a session
 * activity only to the worker that claimed it (fetches routing sessions). Fetch waits of a
 * frozen worker, while the database was down, and a worker's first fetch after it started, lost
 * its connections or saw the server come back (it connects) do not count as idle.
 */
export function checkNoStall(evidence: StallEvidence, bounds: StallBounds): InvariantResult {
  const { audit: trail, freezes, outages } = evidence;
  const holds = claimHolds(trail.claims, trail.lockEvents);
  const violations: string[] = [];

  const lost = lostClaims(holds, evidence);
  violations.push(...lost);

  const runnable = runnableWork(holds, evidence, bounds);
  // A worker connects afresh when it starts, when its connections are cut, and when the server
  // comes back from a restart (which cut every connection).
  const workers = new Set(evidence.lives.map((life) => life.worker));
  const idle = idleRoom(trail, freezes, outages, [
    ...evidence.lives.map((life) => ({ worker: life.worker, atMs: life.startedAtMs })),
    ...evidence.connectionDrops,
    ...outages.flatMap((outage) => [...workers].map((worker) => ({ worker, atMs: outage.fromMs }))),
  ]);
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
    const sentAtMs = claimSentAtMs(claim);
    const own = waitedForWork
      ? IntervalUnion.of([{ fromMs: claim.fetchStartedAtMs, toMs: sentAtMs }])
          .without(idle.notIdle(claim.worker))
          .intervals()
      : [];
    const others = eligible?.within(wait.runnableSinceMs, sentAtMs) ?? [];
    const idleMs = IntervalUnion.of([...others, ...own]).coveredMs(wait.runnableSinceMs, sentAtMs);
    const othersMs = IntervalUnion.of(others).coveredMs(wait.runnableSinceMs, sentAtMs);
    judged.push({ ...wait, sentAtMs, idleMs, ownFetchMs: idleMs - othersMs });
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
    } (bounds ${bounds.announcedMs} / ${bounds.silentMs} ms), ${stalled.length} over, ${lost.length} claims lost`,
    {
      judged: judged.length,
      unjudged,
      lostClaims: lost.length,
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
 * The claims a worker that lived on neither acknowledged nor abandoned, described. The runtime
 * had a claim from when the observer let go of it; a holder that died or froze before its lease
 * (and the grace for its last records) ran out is excused, and records buffered while the
 * server was down reach the audit log only once it is back.
 */
function lostClaims(holds: ReadonlyMap<string, ClaimHold>, evidence: StallEvidence): string[] {
  const { lives, freezes, outages } = evidence;
  const lifeOf = new Map(lives.map((life) => [life.pid, life]));
  const lost: string[] = [];
  for (const hold of holds.values()) {
    const { claim } = hold;
    // A claim whose lease was gone or over when it was read (a turn cancelled the activity, or
    // another worker took the work after the claim's answer sat in a frozen process) held
    // nothing that anyone waited for.
    const heldNothing = claim.lockedUntilMs === null || claim.lockedUntilMs <= claim.claimedAtMs;
    if (hold.ending !== null || heldNothing) continue;
    const life = lifeOf.get(claim.life);
    if (life === undefined) continue;
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
    lost.push(
      `${claim.worker} (pid ${claim.life}, alive until ${life.endedAtMs === null ? 'the end' : new Date(life.endedAtMs).toISOString()}) claimed ${claim.schema}/${claim.instance} ${claim.queue === 'orchestrator' ? 'turn' : `activity ${claim.messageKey}`}${claim.session === null ? '' : ` of session ${claim.session}`} and neither acknowledged nor abandoned it: its work waited for the lease to run out (${Math.round(hold.leaseEndMs - claim.claimedAtMs)} ms)`,
    );
  }

  return lost;
}
