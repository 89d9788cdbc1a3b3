import type { EventKind } from '../../model/event.js';
import { SUB_ORCH_AUTO_PREFIX } from '../../model/sub-orchestration-id.js';

/**
 * A decision an orchestration turn makes, as duroxide's `Action`. Schedule actions carry the id
 * of the event that records them once the replay engine has assigned it (0 before).
 * @internal
 */
export type Action =
  | {
      readonly type: 'CallActivity';
      readonly schedulingEventId: number;
      readonly name: string;
      readonly input: string;
      readonly sessionId: string | null;
      readonly tag: string | null;
    }
  | { readonly type: 'CreateTimer'; readonly schedulingEventId: number; readonly fireAtMs: number }
  | { readonly type: 'WaitExternal'; readonly schedulingEventId: number; readonly name: string }
  | { readonly type: 'DequeueEvent'; readonly schedulingEventId: number; readonly name: string }
  | {
      readonly type: 'StartOrchestrationDetached';
      readonly schedulingEventId: number;
      readonly name: string;
      readonly version: string | null;
      readonly instance: string;
      readonly input: string;
    }
  | {
      readonly type: 'StartSubOrchestration';
      readonly schedulingEventId: number;
      readonly name: string;
      readonly version: string | null;
      readonly instance: string;
      readonly input: string;
    }
  | { readonly type: 'ContinueAsNew'; readonly input: string; readonly version: string | null }
  | { readonly type: 'UpdateCustomStatus'; readonly status: string | null }
  | {
      readonly type: 'SetKeyValue';
      readonly key: string;
      readonly value: string;
      readonly lastUpdatedAtMs: number;
    }
  | { readonly type: 'ClearKeyValue'; readonly key: string }
  | { readonly type: 'ClearKeyValues' };

/** Prefix of the placeholder id an auto-named child carries until its event id is known. */
export const SUB_ORCH_PENDING_PREFIX = 'sub::pending_';

/**
 * The generated child id suffix: `sub::{eventId}` in the first execution and
 * `sub::{executionId}_{eventId}` after continue-as-new (event ids restart at 1 there).
 */
export function autoSubOrchestrationSuffix(executionId: number, eventId: number): string {
  return executionId === 1
    ? `${SUB_ORCH_AUTO_PREFIX}${eventId}`
    : `${SUB_ORCH_AUTO_PREFIX}${executionId}_${eventId}`;
}

/** The action with its scheduling event id set, and a generated child id filled in. */
export function bindActionToEvent(action: Action, executionId: number, eventId: number): Action {
  switch (action.type) {
    case 'StartSubOrchestration':
      return {
        ...action,
        schedulingEventId: eventId,
        instance: action.instance.startsWith(SUB_ORCH_PENDING_PREFIX)
          ? autoSubOrchestrationSuffix(executionId, eventId)
          : action.instance,
      };
    case 'CallActivity':
    case 'CreateTimer':
    case 'WaitExternal':
    case 'DequeueEvent':
    case 'StartOrchestrationDetached':
      return { ...action, schedulingEventId: eventId };
    case 'ContinueAsNew':
    case 'UpdateCustomStatus':
    case 'SetKeyValue':
    case 'ClearKeyValue':
    case 'ClearKeyValues':
      return action;
  }
}

/** The history event kind that records an action; `null` for continue-as-new. */
export function actionToEventKind(action: Action): EventKind | null {
  switch (action.type) {
    case 'CallActivity':
      return {
        type: 'ActivityScheduled',
        name: action.name,
        input: action.input,
        ...(action.sessionId !== null ? { sessionId: action.sessionId } : {}),
        ...(action.tag !== null ? { tag: action.tag } : {}),
      };
    case 'CreateTimer':
      return { type: 'TimerCreated', fireAtMs: action.fireAtMs };
    case 'WaitExternal':
      return { type: 'ExternalSubscribed', name: action.name };
    case 'DequeueEvent':
      return { type: 'QueueSubscribed', name: action.name };
    case 'StartSubOrchestration':
      return {
        type: 'SubOrchestrationScheduled',
        name: action.name,
        instance: action.instance,
        input: action.input,
      };
    case 'StartOrchestrationDetached':
      return {
        type: 'OrchestrationChained',
        name: action.name,
        instance: action.instance,
        input: action.input,
      };
    case 'ContinueAsNew':
      return null;
    case 'UpdateCustomStatus':
      return { type: 'CustomStatusUpdated', status: action.status };
    case 'SetKeyValue':
      return {
        type: 'KeyValueSet',
        key: action.key,
        value: action.value,
        lastUpdatedAtMs: action.lastUpdatedAtMs,
      };
    case 'ClearKeyValue':
      return { type: 'KeyValueCleared', key: action.key };
    case 'ClearKeyValues':
      return { type: 'KeyValuesCleared' };
  }
}

/**
 * Whether replayed code made the decision history recorded, by duroxide's matching rules:
 * activities by name, input, session and tag; timers by position; waits and dequeues by name;
 * children by name and input; detached starts by name, instance and input; custom status by
 * kind; KV sets by key and value (not the timestamp).
 */
export function actionMatchesEvent(action: Action, kind: EventKind): boolean {
  switch (action.type) {
    case 'CallActivity':
      return (
        kind.type === 'ActivityScheduled' &&
        kind.name === action.name &&
        kind.input === action.input &&
        (kind.sessionId ?? null) === action.sessionId &&
        (kind.tag ?? null) === action.tag
      );
    case 'CreateTimer':
      return kind.type === 'TimerCreated';
    case 'WaitExternal':
      return kind.type === 'ExternalSubscribed' && kind.name === action.name;
    case 'DequeueEvent':
      return kind.type === 'QueueSubscribed' && kind.name === action.name;
    case 'StartSubOrchestration':
      return (
        kind.type === 'SubOrchestrationScheduled' &&
        kind.name === action.name &&
        kind.input === action.input
      );
    case 'StartOrchestrationDetached':
      return (
        kind.type === 'OrchestrationChained' &&
        kind.name === action.name &&
        kind.instance === action.instance &&
        kind.input === action.input
      );
    case 'UpdateCustomStatus':
      return kind.type === 'CustomStatusUpdated';
    case 'SetKeyValue':
      return kind.type === 'KeyValueSet' && kind.key === action.key && kind.value === action.value;
    case 'ClearKeyValue':
      return kind.type === 'KeyValueCleared' && kind.key === action.key;
    case 'ClearKeyValues':
      return kind.type === 'KeyValuesCleared';
    case 'ContinueAsNew':
      return false;
  }
}
