import { describe, expect, it } from 'vitest';
import type { Event, EventKind, EventOf } from './event.js';
import {
  decodeEvent,
  encodeEvent,
  eventFromWire,
  eventToWire,
  eventWireTag,
} from './event-codec.js';
import {
  activityError,
  EVENT_TYPES,
  CARRIED,
  DUROXIDE_VERSION,
  ESCAPES,
  EXECUTION_ID,
  failedDeserializationError,
  FIRE_AT_MS,
  INPUT,
  INSTANCE,
  PARENT_INSTANCE,
  poisonedActivityError,
  RESULT,
  TIMESTAMP_MS,
} from './golden-samples.test-support.js';
import { checkGoldenFixtures, goldenFixture } from './golden-fixtures.test-support.js';

function event(eventId: number, sourceEventId: number | null, kind: EventKind): Event {
  return {
    eventId,
    sourceEventId,
    instanceId: INSTANCE,
    executionId: EXECUTION_ID,
    timestampMs: TIMESTAMP_MS,
    duroxideVersion: DUROXIDE_VERSION,
    kind,
  };
}

const started = {
  type: 'OrchestrationStarted',
  name: 'Checkout',
  version: '1.2.0',
  input: INPUT,
  parentInstance: null,
  parentId: null,
} as const;
const parentLink = { parentInstance: PARENT_INSTANCE, parentId: 4, parentExecutionId: 1 };
const scheduled = { type: 'ActivityScheduled', name: 'Charge', input: INPUT } as const;
/** The value each file in `__fixtures__/events/` holds, built as tools/wire-fixtures builds it. */
const expected: Record<string, Event> = {
  OrchestrationStarted: event(1, null, started),
  'OrchestrationStarted.child': event(1, null, { ...started, ...parentLink }),
  'OrchestrationStarted.continued-as-new': event(1, null, {
    ...started,
    carryForwardEvents: CARRIED,
    initialCustomStatus: '{"stage":"waiting"}',
  }),
  'OrchestrationStarted.empty-carry-forward': event(1, null, {
    ...started,
    carryForwardEvents: [],
  }),
  'OrchestrationStarted.child-continued-as-new': event(1, null, {
    ...started,
    ...parentLink,
    carryForwardEvents: CARRIED,
    initialCustomStatus: 'half way',
  }),
  OrchestrationCompleted: event(9, null, { type: 'OrchestrationCompleted', output: RESULT }),
  OrchestrationFailed: event(9, null, { type: 'OrchestrationFailed', details: activityError }),
  'OrchestrationFailed.legacy-empty-header': {
    ...event(5, null, { type: 'OrchestrationFailed', details: activityError }),
    instanceId: '',
    executionId: 0,
  },
  'OrchestrationFailed.sentinel-event-id': event(99_999, null, {
    type: 'OrchestrationFailed',
    details: failedDeserializationError,
  }),
  OrchestrationContinuedAsNew: event(9, null, {
    type: 'OrchestrationContinuedAsNew',
    input: INPUT,
  }),
  OrchestrationCancelRequested: event(6, null, {
    type: 'OrchestrationCancelRequested',
    reason: 'user requested',
  }),
  ActivityScheduled: event(2, null, scheduled),
  'ActivityScheduled.with-session': event(2, null, { ...scheduled, sessionId: 'cart-7' }),
  'ActivityScheduled.with-tag': event(2, null, { ...scheduled, tag: 'gpu' }),
  'ActivityScheduled.with-session-and-tag': event(2, null, {
    ...scheduled,
    sessionId: 'cart-7',
    tag: 'gpu',
  }),
  ActivityCompleted: event(3, 2, { type: 'ActivityCompleted', result: RESULT }),
  ActivityFailed: event(3, 2, { type: 'ActivityFailed', details: activityError }),
  'ActivityFailed.poison': event(3, 2, { type: 'ActivityFailed', details: poisonedActivityError }),
  ActivityCancelRequested: event(4, 2, {
    type: 'ActivityCancelRequested',
    reason: 'dropped_future',
  }),
  TimerCreated: event(2, null, { type: 'TimerCreated', fireAtMs: FIRE_AT_MS }),
  'TimerCreated.max-safe-integer': event(2, null, {
    type: 'TimerCreated',
    fireAtMs: Number.MAX_SAFE_INTEGER,
  }),
  TimerFired: event(3, 2, { type: 'TimerFired', fireAtMs: FIRE_AT_MS }),
  ExternalSubscribed: event(2, null, { type: 'ExternalSubscribed', name: 'approval' }),
  ExternalEvent: event(3, null, { type: 'ExternalEvent', name: 'approval', data: '{"ok":true}' }),
  'ExternalEvent.escapes': event(3, null, { type: 'ExternalEvent', name: ESCAPES, data: ESCAPES }),
  ExternalSubscribedCancelled: event(4, 2, {
    type: 'ExternalSubscribedCancelled',
    reason: 'dropped_future',
  }),
  QueueSubscribed: event(2, null, { type: 'QueueSubscribed', name: 'inbox' }),
  QueueEventDelivered: event(3, null, {
    type: 'QueueEventDelivered',
    name: 'inbox',
    data: 'hello',
  }),
  QueueSubscriptionCancelled: event(4, 2, {
    type: 'QueueSubscriptionCancelled',
    reason: 'orchestration_terminal',
  }),
  OrchestrationChained: event(2, null, {
    type: 'OrchestrationChained',
    name: 'Audit',
    instance: 'audit-7',
    input: INPUT,
  }),
  SubOrchestrationScheduled: event(4, null, {
    type: 'SubOrchestrationScheduled',
    name: 'Ship',
    instance: 'sub::4',
    input: INPUT,
  }),
  SubOrchestrationCompleted: event(5, 4, { type: 'SubOrchestrationCompleted', result: RESULT }),
  SubOrchestrationFailed: event(5, 4, { type: 'SubOrchestrationFailed', details: activityError }),
  SubOrchestrationCancelRequested: event(6, 4, {
    type: 'SubOrchestrationCancelRequested',
    reason: 'dropped_future',
  }),
  CustomStatusUpdated: event(2, null, { type: 'CustomStatusUpdated', status: '{"stage":"paid"}' }),
  'CustomStatusUpdated.cleared': event(3, null, { type: 'CustomStatusUpdated', status: null }),
  'CustomStatusUpdated.escapes': event(2, null, { type: 'CustomStatusUpdated', status: ESCAPES }),
  KeyValueSet: event(2, null, {
    type: 'KeyValueSet',
    key: 'cart',
    value: '["A-1"]',
    lastUpdatedAtMs: TIMESTAMP_MS,
  }),
  KeyValueCleared: event(3, null, { type: 'KeyValueCleared', key: 'cart' }),
  KeyValuesCleared: event(4, null, { type: 'KeyValuesCleared' }),
};

const fixture = (name: string) => goldenFixture('events', name);

describe('history events written by duroxide serde (golden fixtures)', () => {
  checkGoldenFixtures('events', expected, {
    encode: encodeEvent,
    decode: decodeEvent,
    toWire: eventToWire,
    fromWire: (value) => eventFromWire(value),
    variantOf: (value) => value.kind.type,
    variants: EVENT_TYPES,
  });
});

describe('event wire tags', () => {
  it('persistent-queue events travel under their legacy tags', () => {
    expect(eventWireTag('QueueSubscribed')).toBe('ExternalSubscribedPersistent');
    expect(eventWireTag('QueueEventDelivered')).toBe('ExternalEventPersistent');
    expect(eventWireTag('QueueSubscriptionCancelled')).toBe(
      'ExternalSubscribedPersistentCancelled',
    );
    expect(fixture('QueueSubscribed')).toContain('"type":"ExternalSubscribedPersistent"');
  });

  it.each(Object.keys(expected))('the tag of %s is the "type" serde wrote', (name) => {
    const value = expected[name] as Event;
    const written = (JSON.parse(fixture(name)) as { type: string }).type;
    expect(eventWireTag(value.kind.type)).toBe(written);
  });

  it('an optional field is omitted when absent and a nullable one is written as null', () => {
    const root = fixture('OrchestrationStarted');
    expect(root).toContain('"parent_instance":null,"parent_id":null}');
    expect(root).not.toContain('parent_execution_id');
    expect(root).not.toContain('carry_forward_events');
    expect(fixture('OrchestrationStarted.empty-carry-forward')).toContain(
      '"carry_forward_events":[]',
    );
    expect(fixture('CustomStatusUpdated.cleared')).toMatch(/"status":null}$/);
    const cleared = decodeEvent(fixture('KeyValuesCleared')) as EventOf<'KeyValuesCleared'>;
    expect(Object.keys(cleared.kind)).toEqual(['type']);
  });
});
