import type { ErrorDetails } from '../../model/error-details.js';
import type { Event, EventKind } from '../../model/event.js';
import type { WorkItem } from '../../model/work-item.js';
import type { KvEntry, ScheduledActivityIdentifier } from '../../provider/orchestration-item.js';
import { MAX_CARRY_FORWARD_EVENTS } from '../limits.js';
import type { Logger } from '../logger.js';
import type { Action } from '../replay/action.js';
import { childInstanceId } from '../../model/sub-orchestration-id.js';
import { ReplayEngine, type OrchestrationFunction } from '../replay/replay-engine.js';
import { newEvent } from '../runtime-version.js';
import type { BatchReading } from './batch-reader.js';
import { nextEventId } from './history-summary.js';
import {
  accumulatedCustomStatus,
  outstandingSchedules,
  unmatchedQueueMessages,
} from './outstanding-schedules.js';

/** Everything one execution turn needs. */
export interface TurnInput {
  readonly instance: string;
  readonly executionId: number;
  /** Stored events of the execution (empty for a new one). */
  readonly persisted: readonly Event[];
  /** Events the dispatcher already added this turn (the new `OrchestrationStarted`). */
  readonly started: readonly Event[];
  readonly batch: BatchReading;
  readonly handler: OrchestrationFunction;
  readonly version: string;
  readonly kvSnapshot: ReadonlyMap<string, KvEntry>;
  readonly logger: Logger;
  /** The parent execution a child's result goes to (stamped, or looked up). */
  readonly parentExecutionId: (parentInstance: string, stamped: number | null) => Promise<number>;
}

/** What a turn commits. */
export interface TurnOutput {
  readonly delta: Event[];
  readonly workerItems: WorkItem[];
  readonly orchestratorItems: WorkItem[];
  readonly cancelledActivities: ScheduledActivityIdentifier[];
}

/**
 * Runs one turn and turns its result into the history delta and outbound work, as duroxide's
 * `run_single_execution_atomic`: new schedules become worker items, timers, child starts;
 * a terminal result closes open subscriptions (breadcrumbs before the terminal event), notifies
 * the parent, cancels children of a cancelled instance, and continue-as-new carries unread queue
 * messages (at most {@link MAX_CARRY_FORWARD_EVENTS}) and the custom status forward. Detached
 * starts of the last turn are sent at every terminal result, continue-as-new included (where
 * duroxide 0.1.32 drops them).
 * @internal
 */
export async function executeTurn(input: TurnInput): Promise<TurnOutput> {
  const { instance, executionId, batch } = input;
  const history = [...input.persisted, ...input.started];
  const engine = new ReplayEngine({
    instance,
    executionId,
    history,
    persistedLength: input.persisted.length,
    kvSnapshot: input.kvSnapshot,
    logger: input.logger,
  });
  if (batch.completions.length > 0) engine.prepCompletions(batch.completions);
  const result = engine.execute(input.handler, batch.input, batch.orchestrationName, input.version);

  const delta: Event[] = [...input.started, ...engine.historyDelta];
  const workerItems: WorkItem[] = [];
  const orchestratorItems: WorkItem[] = [];
  const cancelledActivities = engine.cancelledActivityIds.map((activityId) => ({
    instance,
    executionId,
    activityId,
  }));
  const append = (kind: EventKind, source: number | null = null): void => {
    delta.push(newEvent(nextEventId(input.persisted, delta), instance, executionId, source, kind));
  };
  const parent =
    batch.parentInstance !== null && batch.parentId !== null
      ? { instance: batch.parentInstance, id: batch.parentId, stamped: batch.parentExecutionId }
      : null;
  const notifyParent = async (
    outcome: { result: string } | { details: ErrorDetails },
  ): Promise<void> => {
    if (!parent) return;
    const parentExecutionId = await input.parentExecutionId(parent.instance, parent.stamped);
    orchestratorItems.push(
      'result' in outcome
        ? {
            type: 'SubOrchCompleted',
            parentInstance: parent.instance,
            parentExecutionId,
            parentId: parent.id,
            result: outcome.result,
          }
        : {
            type: 'SubOrchFailed',
            parentInstance: parent.instance,
            parentExecutionId,
            parentId: parent.id,
            details: outcome.details,
          },
    );
  };
  const closeSubscriptions = (): ReturnType<typeof outstandingSchedules> => {
    const outstanding = outstandingSchedules([...input.persisted, ...delta]);
    for (const id of outstanding.positionalSubscriptions) {
      append({ type: 'ExternalSubscribedCancelled', reason: 'orchestration_terminal' }, id);
    }
    for (const id of outstanding.queueSubscriptions) {
      append({ type: 'QueueSubscriptionCancelled', reason: 'orchestration_terminal' }, id);
    }
    return outstanding;
  };

  switch (result.type) {
    case 'Continue':
      for (const action of engine.pendingActions) {
        const item = continueItem(action, instance, executionId);
        if (!item) continue;
        (item.type === 'ActivityExecute' ? workerItems : orchestratorItems).push(item);
      }
      break;
    case 'Completed':
      orchestratorItems.push(...detachedStarts(engine.pendingActions));
      closeSubscriptions();
      append({ type: 'OrchestrationCompleted', output: result.output });
      await notifyParent({ result: result.output });
      break;
    case 'Failed':
      orchestratorItems.push(...detachedStarts(engine.pendingActions));
      closeSubscriptions();
      append({ type: 'OrchestrationFailed', details: result.details });
      await notifyParent({ details: result.details });
      break;
    case 'ContinueAsNew': {
      // duroxide 0.1.32 honours detached starts only at Completed and Failed, so one issued in
      // the turn that continues as new is recorded (OrchestrationChained) but never started.
      // duro starts it: history says it was started, and nothing acknowledged may be lost.
      orchestratorItems.push(...detachedStarts(engine.pendingActions));
      const all = [...input.persisted, ...delta];
      let carried = result.unconsumedQueueArrivals ?? unmatchedQueueMessages(all);
      closeSubscriptions();
      append({ type: 'OrchestrationContinuedAsNew', input: result.input });
      if (carried.length > MAX_CARRY_FORWARD_EVENTS) {
        input.logger.warn(
          { instance, dropped: carried.slice(MAX_CARRY_FORWARD_EVENTS) },
          `Dropping ${carried.length - MAX_CARRY_FORWARD_EVENTS} carry-forward events beyond limit of ${MAX_CARRY_FORWARD_EVENTS} during continue-as-new`,
        );
        carried = carried.slice(0, MAX_CARRY_FORWARD_EVENTS);
      }
      const status = accumulatedCustomStatus([...input.persisted, ...delta]);
      orchestratorItems.push({
        type: 'ContinueAsNew',
        instance,
        orchestration: batch.orchestrationName,
        input: result.input,
        version: result.version,
        ...(parent ? { parentInstance: parent.instance, parentId: parent.id } : {}),
        ...(parent?.stamped != null ? { parentExecutionId: parent.stamped } : {}),
        carryForwardEvents: carried,
        ...(status !== null ? { initialCustomStatus: status } : {}),
      });
      break;
    }
    case 'Cancelled': {
      const details: ErrorDetails = {
        type: 'Application',
        kind: { type: 'Cancelled', reason: result.reason },
        message: '',
        retryable: false,
      };
      const outstanding = closeSubscriptions();
      append({ type: 'OrchestrationFailed', details });
      for (const [, child] of outstanding.subOrchestrations) {
        orchestratorItems.push({
          type: 'CancelInstance',
          instance: childInstanceId(instance, child),
          reason: 'parent canceled',
        });
      }
      await notifyParent({ details });
      break;
    }
  }
  for (const child of engine.cancelledSubOrchestrations) {
    orchestratorItems.push({
      type: 'CancelInstance',
      instance: childInstanceId(instance, child),
      reason: 'parent dropped sub-orchestration future',
    });
  }
  return { delta, workerItems, orchestratorItems, cancelledActivities };
}

function continueItem(action: Action, instance: string, executionId: number): WorkItem | null {
  switch (action.type) {
    case 'CallActivity':
      return {
        type: 'ActivityExecute',
        instance,
        executionId,
        id: action.schedulingEventId,
        name: action.name,
        input: action.input,
        ...(action.sessionId !== null ? { sessionId: action.sessionId } : {}),
        ...(action.tag !== null ? { tag: action.tag } : {}),
      };
    case 'CreateTimer':
      return {
        type: 'TimerFired',
        instance,
        executionId,
        id: action.schedulingEventId,
        fireAtMs: action.fireAtMs,
      };
    case 'StartSubOrchestration':
      return {
        type: 'StartOrchestration',
        instance: childInstanceId(instance, action.instance),
        orchestration: action.name,
        input: action.input,
        version: action.version,
        parentInstance: instance,
        parentId: action.schedulingEventId,
        parentExecutionId: executionId,
        executionId: 1,
      };
    case 'StartOrchestrationDetached':
      return detachedStart(action);
    default:
      return null;
  }
}

function detachedStart(action: Extract<Action, { type: 'StartOrchestrationDetached' }>): WorkItem {
  return {
    type: 'StartOrchestration',
    instance: action.instance,
    orchestration: action.name,
    input: action.input,
    version: action.version,
    parentInstance: null,
    parentId: null,
    executionId: 1,
  };
}

function detachedStarts(actions: readonly Action[]): WorkItem[] {
  return actions.flatMap((action) =>
    action.type === 'StartOrchestrationDetached' ? [detachedStart(action)] : [],
  );
}
