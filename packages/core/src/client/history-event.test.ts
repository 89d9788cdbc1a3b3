import { describe, expect, it } from 'vitest';
import type { Event, EventKind } from '../model/event.js';
import { historyEvent } from './history-event.js';

function event(kind: EventKind, sourceEventId: number | null = null): Event {
  return {
    eventId: 3,
    sourceEventId,
    instanceId: 'order-7',
    executionId: 1,
    timestampMs: 1_767_225_600_000,
    duroxideVersion: '0.1.32',
    kind,
  };
}

const dataOf = (kind: EventKind) => historyEvent(event(kind)).data;

describe("readExecutionHistory's data, in duroxide-node's shapes", () => {
  it('splices JSON payloads in as they are, so one JSON.parse gives the objects back', () => {
    const started = dataOf({
      type: 'OrchestrationStarted',
      name: 'Checkout',
      version: '1.0.0',
      input: '{"greeting":"hello"}',
      parentInstance: null,
      parentId: null,
    });
    expect(started).toBe('{"name":"Checkout","version":"1.0.0","input":{"greeting":"hello"}}');
    expect(JSON.parse(started ?? '')).toEqual({
      name: 'Checkout',
      version: '1.0.0',
      input: { greeting: 'hello' },
    });
    expect(dataOf({ type: 'OrchestrationCompleted', output: '[1,2]' })).toBe('[1,2]');
    expect(dataOf({ type: 'ActivityCompleted', result: '"done"' })).toBe('"done"');
    expect(dataOf({ type: 'SubOrchestrationCompleted', result: 'null' })).toBe('null');
    expect(
      dataOf({ type: 'ActivityScheduled', name: 'Charge', input: '{"n":1}', tag: 'gpu' }),
    ).toBe('{"name":"Charge","input":{"n":1}}');
    expect(
      dataOf({ type: 'SubOrchestrationScheduled', name: 'Ship', instance: 'sub::3', input: '7' }),
    ).toBe('{"name":"Ship","instance":"sub::3","input":7}');
    expect(dataOf({ type: 'ExternalEvent', name: 'Approve', data: '{"ok":true}' })).toBe(
      '{"name":"Approve","data":{"ok":true}}',
    );
    expect(dataOf({ type: 'QueueEventDelivered', name: 'inbox', data: '"m1"' })).toBe(
      '{"name":"inbox","data":"m1"}',
    );
  });

  it('writes a payload that is not JSON (empty, or raw text) as a JSON string, so data always parses', () => {
    expect(
      dataOf({ type: 'ActivityScheduled', name: '__duroxide_syscall:new_guid', input: '' }),
    ).toBe('{"name":"__duroxide_syscall:new_guid","input":""}');
    expect(dataOf({ type: 'ActivityCompleted', result: 'plain text' })).toBe('"plain text"');
    expect(dataOf({ type: 'ExternalEvent', name: 'e', data: '{broken' })).toBe(
      '{"name":"e","data":"{broken"}',
    );
  });

  it('gives failures as serde writes their error details, timers and subscriptions their fields', () => {
    expect(
      dataOf({
        type: 'ActivityFailed',
        details: {
          type: 'Application',
          kind: { type: 'ActivityFailed' },
          message: 'card declined',
          retryable: false,
        },
      }),
    ).toBe('{"Application":{"kind":"ActivityFailed","message":"card declined","retryable":false}}');
    expect(dataOf({ type: 'TimerCreated', fireAtMs: 1_767_225_630_000 })).toBe(
      '{"fireAtMs":1767225630000}',
    );
    expect(dataOf({ type: 'TimerFired', fireAtMs: 5 })).toBe('{"fireAtMs":5}');
    expect(dataOf({ type: 'ExternalSubscribed', name: 'Approve' })).toBe('{"name":"Approve"}');
    expect(dataOf({ type: 'QueueSubscribed', name: 'inbox' })).toBe('{"name":"inbox"}');
    expect(dataOf({ type: 'QueueSubscriptionCancelled', reason: 'done' })).toBe(
      '{"reason":"done"}',
    );
  });

  it('has no data for the other kinds, and keeps id, kind, source id and time', () => {
    for (const kind of [
      { type: 'ActivityCancelRequested', reason: 'dropped_future' },
      { type: 'CustomStatusUpdated', status: 'busy' },
      { type: 'KeyValuesCleared' },
      { type: 'OrchestrationContinuedAsNew', input: '1' },
    ] as const) {
      expect(dataOf(kind), kind.type).toBeUndefined();
    }
    const summary = historyEvent(event({ type: 'ActivityCompleted', result: '1' }, 2));
    expect(summary).toEqual({
      eventId: 3,
      kind: 'ActivityCompleted',
      sourceEventId: 2,
      timestampMs: 1_767_225_600_000,
      data: '1',
      event: event({ type: 'ActivityCompleted', result: '1' }, 2),
    });
    expect('sourceEventId' in historyEvent(event({ type: 'KeyValuesCleared' }))).toBe(false);
  });
});
