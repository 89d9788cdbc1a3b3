import type { ErrorDetails } from '../../model/error-details.js';
import type { Event, EventKind } from '../../model/event.js';
import type { WorkItem } from '../../model/work-item.js';

/** A `Configuration/Nondeterminism` error with a message. */
export function nondeterminism(message: string): ErrorDetails {
  return { type: 'Configuration', kind: { type: 'Nondeterminism' }, resource: '', message };
}

type ScheduleKind = 'activity' | 'timer' | 'suborchestration';

/** What stage 1 produced: the events for the delta and an error that aborts the turn. */
export interface IntakeResult {
  readonly kinds: EventKind[];
  readonly sourceIds: Array<number | null>;
  readonly abortError: ErrorDetails | null;
}

function isSystemError(details: ErrorDetails): boolean {
  return details.type !== 'Application';
}

/**
 * Stage 1 of a turn, as duroxide's `prep_completions`: turns the batch's messages into the
 * events they append, in order. Completions for another execution and duplicates are dropped;
 * a completion whose schedule is missing or of another kind is nondeterminism; a system error
 * (configuration, infrastructure, poison) in a failed activity or child aborts the turn but is
 * still recorded. External events and queue messages are always recorded; a cancel is recorded
 * unless the execution already ended or was already cancelled.
 * @internal
 */
export function intakeCompletions(
  history: readonly Event[],
  executionId: number,
  messages: readonly WorkItem[],
): IntakeResult {
  const scheduleKinds = new Map<number, ScheduleKind>();
  const seen = {
    activityCompleted: new Set<number>(),
    timer: new Set<number>(),
    subCompleted: new Set<number>(),
    subFailed: new Set<number>(),
  };
  let terminated = false;
  let cancelled = false;
  for (const event of history) {
    const kind = event.kind.type;
    const source = event.sourceEventId;
    if (kind === 'ActivityScheduled') scheduleKinds.set(event.eventId, 'activity');
    else if (kind === 'TimerCreated') scheduleKinds.set(event.eventId, 'timer');
    else if (kind === 'SubOrchestrationScheduled')
      scheduleKinds.set(event.eventId, 'suborchestration');
    else if (kind === 'OrchestrationCompleted' || kind === 'OrchestrationFailed') terminated = true;
    else if (kind === 'OrchestrationCancelRequested') cancelled = true;
    if (source === null) continue;
    if (kind === 'ActivityCompleted') seen.activityCompleted.add(source);
    else if (kind === 'TimerFired') seen.timer.add(source);
    else if (kind === 'SubOrchestrationCompleted') seen.subCompleted.add(source);
    else if (kind === 'SubOrchestrationFailed') seen.subFailed.add(source);
  }

  const staged = { activity: new Set<number>(), timer: new Set<number>(), sub: new Set<number>() };
  const result: IntakeResult = { kinds: [], sourceIds: [], abortError: null };
  let abortError: ErrorDetails | null = null;
  const push = (kind: EventKind, source: number | null): void => {
    result.kinds.push(kind);
    result.sourceIds.push(source);
  };
  const checkSchedule = (
    id: number,
    expected: ScheduleKind,
    missing: string,
  ): ErrorDetails | null => {
    const actual = scheduleKinds.get(id);
    if (actual === expected) return null;
    if (actual === undefined) return nondeterminism(missing);
    return nondeterminism(
      `completion kind mismatch for id=${id}, expected '${actual}', got '${expected}'`,
    );
  };

  for (const msg of messages) {
    switch (msg.type) {
      case 'ActivityCompleted':
      case 'ActivityFailed': {
        if (msg.executionId !== executionId) break;
        if (msg.type === 'ActivityCompleted' && seen.activityCompleted.has(msg.id)) break;
        if (staged.activity.has(msg.id)) break;
        const error = checkSchedule(
          msg.id,
          'activity',
          `no matching schedule for completion id=${msg.id}`,
        );
        if (error) {
          abortError = error;
          break;
        }
        staged.activity.add(msg.id);
        if (msg.type === 'ActivityCompleted') {
          push({ type: 'ActivityCompleted', result: msg.result }, msg.id);
        } else {
          push({ type: 'ActivityFailed', details: msg.details }, msg.id);
          if (isSystemError(msg.details)) abortError ??= msg.details;
        }
        break;
      }
      case 'TimerFired': {
        if (msg.executionId !== executionId) break;
        if (seen.timer.has(msg.id) || staged.timer.has(msg.id)) break;
        const error = checkSchedule(msg.id, 'timer', `no matching schedule for timer id=${msg.id}`);
        if (error) {
          abortError = error;
          break;
        }
        staged.timer.add(msg.id);
        push({ type: 'TimerFired', fireAtMs: msg.fireAtMs }, msg.id);
        break;
      }
      case 'SubOrchCompleted':
      case 'SubOrchFailed': {
        if (msg.parentExecutionId !== executionId) break;
        const inHistory = msg.type === 'SubOrchCompleted' ? seen.subCompleted : seen.subFailed;
        if (inHistory.has(msg.parentId) || staged.sub.has(msg.parentId)) break;
        const error = checkSchedule(
          msg.parentId,
          'suborchestration',
          `no matching schedule for sub-orchestration id=${msg.parentId}`,
        );
        if (error) {
          abortError = error;
          break;
        }
        staged.sub.add(msg.parentId);
        if (msg.type === 'SubOrchCompleted') {
          push({ type: 'SubOrchestrationCompleted', result: msg.result }, msg.parentId);
        } else {
          push({ type: 'SubOrchestrationFailed', details: msg.details }, msg.parentId);
          if (isSystemError(msg.details)) abortError ??= msg.details;
        }
        break;
      }
      case 'ExternalRaised':
        push({ type: 'ExternalEvent', name: msg.name, data: msg.data }, null);
        break;
      case 'QueueMessage':
        push({ type: 'QueueEventDelivered', name: msg.name, data: msg.data }, null);
        break;
      case 'CancelInstance':
        if (!terminated && !cancelled) {
          cancelled = true;
          push({ type: 'OrchestrationCancelRequested', reason: msg.reason }, null);
        }
        break;
      case 'StartOrchestration':
      case 'ContinueAsNew':
      case 'ActivityExecute':
        break;
    }
  }
  return { ...result, abortError };
}
