import type { ErrorDetails } from '../../model/error-details.js';
import { errorDisplayMessage } from '../../model/error-details.js';
import type { Event, EventKind } from '../../model/event.js';
import { actionMatchesEvent, type Action } from './action.js';
import { nondeterminism } from './completion-intake.js';
import { describeAction, describeEventKind } from './debug-text.js';
import type { ReplayState } from './replay-state.js';
import type { TurnResult } from './turn-result.js';

type OpenKind = 'activity' | 'timer' | 'external' | 'queue' | 'subOrchestration';

/** Unwinds a turn that ended early (nondeterminism, a panic) to `execute`. */
export class TurnAbort extends Error {
  constructor(readonly result: TurnResult) {
    super(result.type);
  }
}

/** Ends the turn as Failed with `details`. */
export function abortTurn(details: ErrorDetails): never {
  throw new TurnAbort({ type: 'Failed', details });
}

/**
 * Matches the decisions a replayed orchestration makes against its history, in order, as the
 * event walk of duroxide's `execute_orchestration`: schedule events bind the next emitted
 * action (a mismatch or a missing action is nondeterminism), completions are delivered to the
 * task they complete, arrivals go to waits and queues, breadcrumbs cancel subscriptions.
 * @internal
 */
export class HistoryMatcher {
  // A queue read from `head`: shifting an array per matched event would make a long replay
  // quadratic.
  private emitted: Array<[number, Action]> = [];
  private head = 0;
  private readonly open = new Map<number, OpenKind>();

  constructor(private readonly state: ReplayState) {}

  /** Queues actions the orchestration emitted, in emission order. */
  addEmitted(actions: ReadonlyArray<[number, Action]>): void {
    this.emitted.push(...actions);
  }

  /** Takes the emitted actions no history event matched: the turn's new decisions. */
  takeUnmatched(): Array<[number, Action]> {
    const unmatched = this.emitted.slice(this.head);
    this.emitted = [];
    this.head = 0;
    return unmatched;
  }

  /** Applies one history event; returns whether the orchestration must be polled again. */
  apply(event: Event): boolean {
    const { state } = this;
    const kind = event.kind;
    const source = event.sourceEventId;
    switch (kind.type) {
      case 'CustomStatusUpdated':
        this.consumeMetadataAction(kind, 'custom status mismatch');
        return false;
      case 'KeyValueSet':
        this.consumeMetadataAction(kind, 'kv set mismatch');
        return false;
      case 'KeyValuesCleared':
        this.consumeMetadataAction(kind, 'kv clear_all mismatch');
        return false;
      case 'KeyValueCleared': {
        // Older runtimes recorded a prune's clears in hash order; clears of different keys
        // commute, so this one may match anywhere in the leading run of clears.
        let index = this.head;
        while (index < this.emitted.length && this.emitted[index]?.[1].type === 'ClearKeyValue') {
          const action = this.emitted[index]?.[1];
          if (action?.type === 'ClearKeyValue' && action.key === kind.key) {
            this.emitted.splice(index, 1);
            return false;
          }
          index += 1;
        }
        this.consumeMetadataAction(kind, 'kv clear mismatch');
        return false;
      }
      case 'ActivityScheduled':
        this.matchSchedule(event, 'activity');
        return false;
      case 'TimerCreated':
        this.matchSchedule(event, 'timer');
        return false;
      case 'ExternalSubscribed':
        this.matchSchedule(event, 'external');
        state.bindExternalSubscription(event.eventId, kind.name);
        return false;
      case 'QueueSubscribed':
        this.matchSchedule(event, 'queue');
        state.bindQueueSubscription(event.eventId, kind.name);
        return true;
      case 'SubOrchestrationScheduled':
        state.bindSubOrchestrationInstance(
          this.matchSchedule(event, 'subOrchestration'),
          kind.instance,
        );
        return false;
      case 'OrchestrationChained': {
        const [token, action] = this.popAction(
          'history OrchestrationChained but no emitted action',
        );
        this.requireMatch(action, event);
        state.bindToken(token, event.eventId);
        return false;
      }
      case 'ActivityCompleted':
      case 'ActivityFailed':
      case 'TimerFired':
      case 'SubOrchestrationCompleted':
      case 'SubOrchestrationFailed':
        if (source === null) return false;
        this.complete(source, kind);
        return true;
      case 'ExternalSubscribedCancelled':
        if (source !== null) state.markExternalSubscriptionCancelled(source);
        return false;
      case 'QueueSubscriptionCancelled':
        if (source !== null) state.markQueueSubscriptionCancelled(source);
        return false;
      case 'ExternalEvent':
        if (!state.hasPendingSubscriptionSlot(kind.name)) return false;
        state.deliverExternalEvent(kind.name, kind.data);
        return true;
      case 'QueueEventDelivered':
        state.deliverQueueMessage(kind.name, kind.data);
        return true;
      case 'OrchestrationStarted':
      case 'ActivityCancelRequested':
      case 'SubOrchestrationCancelRequested':
      case 'OrchestrationCancelRequested':
      case 'OrchestrationCompleted':
      case 'OrchestrationFailed':
      case 'OrchestrationContinuedAsNew':
        return false;
    }
  }

  private complete(source: number, kind: EventKind): void {
    if (!this.open.has(source)) abortTurn(nondeterminism('completion without open schedule'));
    const { state } = this;
    switch (kind.type) {
      case 'ActivityCompleted':
        if (this.open.get(source) !== 'activity') {
          abortTurn(nondeterminism('completion kind mismatch: expected activity'));
        }
        state.deliverResult(source, { kind: 'activity', ok: true, value: kind.result });
        break;
      case 'ActivityFailed':
        state.deliverResult(source, {
          kind: 'activity',
          ok: false,
          value: errorDisplayMessage(kind.details),
        });
        break;
      case 'TimerFired':
        state.deliverResult(source, { kind: 'timer' });
        break;
      case 'SubOrchestrationCompleted':
        state.deliverResult(source, { kind: 'subOrchestration', ok: true, value: kind.result });
        break;
      case 'SubOrchestrationFailed':
        state.deliverResult(source, {
          kind: 'subOrchestration',
          ok: false,
          value: errorDisplayMessage(kind.details),
        });
        break;
      default:
        return;
    }
    this.open.delete(source);
  }

  private popAction(missing: string): [number, Action] {
    const next = this.shift();
    if (!next) abortTurn(nondeterminism(missing));
    return next;
  }

  private requireMatch(action: Action, event: Event): void {
    if (!actionMatchesEvent(action, event.kind)) {
      abortTurn(
        nondeterminism(
          `schedule mismatch: action=${describeAction(action)} vs event=${describeEventKind(event.kind)}`,
        ),
      );
    }
  }

  private matchSchedule(event: Event, kind: OpenKind): number {
    const [token, action] = this.popAction('history schedule but no emitted action');
    this.requireMatch(action, event);
    this.state.bindToken(token, event.eventId);
    this.open.set(event.eventId, kind);
    return token;
  }

  /** Custom status and KV events match the next action when there is one (it may be absent). */
  private consumeMetadataAction(kind: EventKind, label: string): void {
    const next = this.shift();
    if (next && !actionMatchesEvent(next[1], kind)) {
      abortTurn(
        nondeterminism(
          `${label}: action=${describeAction(next[1])} vs event=${describeEventKind(kind)}`,
        ),
      );
    }
  }

  private shift(): [number, Action] | undefined {
    const next = this.emitted[this.head];
    if (next) this.head += 1;
    return next;
  }
}
