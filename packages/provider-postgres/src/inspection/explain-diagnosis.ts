import { compareSemver, DUROXIDE_VERSION, parseSemver } from '@duro/core';
import { formatDuration, formatTime } from './time-text.js';
import type { InstanceDiagnosis, QueuedMessage } from './read-instance-diagnosis.js';

/** One thing `why` found: `blocking` ones keep the instance from running now. */
export interface Finding {
  /**
   * `blocking`: it cannot run until someone acts; `waiting`: it will run once the time or work
   * named comes; `info`: context.
   */
  readonly severity: 'blocking' | 'waiting' | 'info';
  /** The finding in one sentence. */
  readonly text: string;
}

/** What the runtimes that should serve the instance are configured with. */
export interface FleetAssumptions {
  /** Their `maxAttempts`. */
  readonly maxAttempts: number;
  /** The newest duroxide version their runtimes replay. */
  readonly replayMaxVersion: string;
  /** How long a visible, unlocked activity may wait before `why` suspects no worker serves it, ms. */
  readonly idleWorkerThresholdMs: number;
}

/**
 * The assumptions of `duro why` when none are given: duroxide's default `maxAttempts` (10),
 * runtimes that replay up to this package's duroxide version, and a minute before a ready
 * activity counts as unserved.
 */
export const DEFAULT_FLEET_ASSUMPTIONS: FleetAssumptions = {
  maxAttempts: 10,
  replayMaxVersion: DUROXIDE_VERSION,
  idleWorkerThresholdMs: 60_000,
};

/** The verdict and the findings for one instance, as of `nowMs`. */
export interface Explanation {
  /**
   * The answer in one line: the first blocking finding, else the first waiting one, else whether
   * the instance is idle or ready for any dispatcher.
   */
  readonly verdict: string;
  /** The facts behind the verdict: the lock, the queued messages, then the pinned version. */
  readonly findings: readonly Finding[];
}

const TERMINAL = new Set(['Completed', 'Failed', 'ContinuedAsNew']);

/** Reads a diagnosis the way an operator would: what holds the instance back, and until when. */
export function explainDiagnosis(
  diagnosis: InstanceDiagnosis,
  fleet: FleetAssumptions,
  nowMs: number,
): Explanation {
  const findings: Finding[] = [];
  const { instance } = diagnosis;
  const left = (untilMs: number) =>
    `${formatTime(untilMs)} (${formatDuration(untilMs - nowMs)} left)`;
  const ago = (atMs: number) => `${formatDuration(nowMs - atMs)} ago`;

  if (
    instance?.status &&
    TERMINAL.has(instance.status) &&
    diagnosis.orchestratorMessages.length === 0
  ) {
    const when = instance.completedAtMs !== null ? ` at ${formatTime(instance.completedAtMs)}` : '';
    return {
      verdict: `not running: execution ${instance.executionId} ${instance.status}${when}`,
      findings,
    };
  }
  if (instance === null) {
    findings.push({
      severity: 'info',
      text: 'no turn has committed yet: the instance row is written by its first turn',
    });
  }

  const lock = diagnosis.lock;
  if (lock && lock.lockedUntilMs > nowMs) {
    findings.push({
      severity: 'blocking',
      text:
        `locked by lock token ${lock.lockToken} since ${formatTime(lock.lockedAtMs)}, until ${left(lock.lockedUntilMs)}: ` +
        'a dispatcher is running a turn, or one that died still holds the lease',
    });
  } else if (lock) {
    findings.push({
      severity: 'info',
      text: `lock token ${lock.lockToken} expired ${ago(lock.lockedUntilMs)}; the next fetch takes the instance over`,
    });
  }

  explainOrchestratorQueue(diagnosis.orchestratorMessages, fleet, nowMs, findings);
  explainWorkerQueue(diagnosis, fleet, nowMs, findings);

  const pinned = instance?.pinnedVersion ?? null;
  if (pinned !== null) {
    const newer = compareSemver(parseSemver(pinned), parseSemver(fleet.replayMaxVersion)) > 0;
    findings.push({
      severity: newer ? 'blocking' : 'info',
      text: newer
        ? `execution ${instance?.executionId} is pinned to duroxide ${pinned}, newer than the ${fleet.replayMaxVersion} the runtimes replay: ` +
          'fetches skip it until a runtime that supports it runs'
        : `execution ${instance?.executionId} is pinned to duroxide ${pinned} (runtimes replay up to ${fleet.replayMaxVersion})`,
    });
  }

  const orderOf = { blocking: 0, waiting: 1, info: 2 } as const;
  const first = [...findings].sort((a, b) => orderOf[a.severity] - orderOf[b.severity])[0];
  const verdict =
    first && first.severity !== 'info'
      ? first.text
      : diagnosis.orchestratorMessages.length === 0 && diagnosis.workerMessages.length === 0
        ? 'idle: nothing is queued for it; it waits for an event, a queue message or a timer not yet scheduled'
        : 'nothing holds it back: its next message is ready for any dispatcher (is a runtime running on this schema?)';
  return { verdict, findings };
}

function explainOrchestratorQueue(
  messages: readonly QueuedMessage[],
  fleet: FleetAssumptions,
  nowMs: number,
  findings: Finding[],
): void {
  if (messages.length === 0) return;
  const next = messages.find((message) => message.lockToken === null) ?? messages[0];
  if (next && next.visibleAtMs > nowMs) {
    findings.push({
      severity: 'waiting',
      text: `next message (${next.type}) becomes visible at ${formatTime(next.visibleAtMs)}, in ${formatDuration(next.visibleAtMs - nowMs)}`,
    });
  } else if (next) {
    findings.push({
      severity: 'info',
      text: `${messages.length} message(s) queued; the next (${next.type}) has been visible since ${formatTime(next.visibleAtMs)}`,
    });
  }
  const attempts = Math.max(...messages.map((message) => message.attemptCount));
  if (attempts >= fleet.maxAttempts) {
    findings.push({
      severity: 'blocking',
      text: `attempt ${attempts} of ${fleet.maxAttempts}: the next fetch fails the instance as poison (if that ack commits)`,
    });
  } else if (attempts > 1) {
    findings.push({
      severity: 'info',
      text: `fetched ${attempts} times without a commit (attempts ${attempts}/${fleet.maxAttempts}): turns fail or their acks are rejected`,
    });
  }
}

function explainWorkerQueue(
  diagnosis: InstanceDiagnosis,
  fleet: FleetAssumptions,
  nowMs: number,
  findings: Finding[],
): void {
  const sessions = new Map(diagnosis.sessions.map((session) => [session.sessionId, session]));
  for (const item of diagnosis.workerMessages) {
    const name = `activity ${item.activityName ?? item.type}${item.activityId !== null ? ` #${item.activityId}` : ''}`;
    const tagText = item.tag !== null ? ` (tag '${item.tag}')` : '';
    if (item.lockedUntilMs !== null && item.lockedUntilMs > nowMs) {
      findings.push({
        severity: 'waiting',
        text: `${name}${tagText} is running: locked until ${formatTime(item.lockedUntilMs)} (${formatDuration(item.lockedUntilMs - nowMs)} left), attempt ${item.attemptCount}/${fleet.maxAttempts}`,
      });
    } else if (item.visibleAtMs > nowMs) {
      findings.push({
        severity: 'waiting',
        text: `${name}${tagText} retries at ${formatTime(item.visibleAtMs)}, in ${formatDuration(item.visibleAtMs - nowMs)}`,
      });
    } else {
      const waited = nowMs - Math.max(item.visibleAtMs, item.createdAtMs);
      const stale = waited >= fleet.idleWorkerThresholdMs;
      findings.push({
        severity: stale ? 'blocking' : 'info',
        text:
          `${name}${tagText} has waited ${formatDuration(waited)} for a worker` +
          (stale
            ? item.tag !== null
              ? `: no running worker seems to take tag '${item.tag}' (its workerTagFilter must name it)`
              : ': no running worker seems to take untagged activities'
            : ''),
      });
    }
    const session = item.sessionId !== null ? sessions.get(item.sessionId) : undefined;
    if (item.sessionId !== null && session === undefined) {
      findings.push({
        severity: 'info',
        text: `session ${item.sessionId} has no owner yet: the first worker to fetch takes it`,
      });
    } else if (session && session.lockedUntilMs > nowMs) {
      findings.push({
        severity: 'info',
        text: `session ${session.sessionId} is owned by ${session.ownerId} until ${formatTime(session.lockedUntilMs)} (${formatDuration(session.lockedUntilMs - nowMs)} left): only that worker takes its activities`,
      });
    } else if (session) {
      findings.push({
        severity: 'info',
        text: `session ${session.sessionId} (last owner ${session.ownerId}) lease expired ${formatDuration(nowMs - session.lockedUntilMs)} ago: any worker may claim it`,
      });
    }
  }
}
