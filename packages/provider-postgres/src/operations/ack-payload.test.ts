import type { Event, EventKind } from '@duro/core';
import { describe, expect, it } from 'vitest';
import { buildAckPayload } from './ack-payload.js';

function event(eventId: number, kind: EventKind): Event {
  return {
    eventId,
    sourceEventId: null,
    instanceId: 'i',
    executionId: 1,
    timestampMs: 1,
    duroxideVersion: '0.1.32',
    kind,
  };
}

describe('the arguments of ack_orchestration_item', () => {
  it('metadata carries every key duroxide-pg sends, null when absent', () => {
    const payload = buildAckPayload([], [], [], {}, []);
    expect(JSON.parse(payload.metadata)).toEqual({
      orchestration_name: null,
      orchestration_version: null,
      status: null,
      output: null,
      parent_instance_id: null,
      pinned_duroxide_version: null,
      custom_status_action: null,
      custom_status_value: null,
      kv_mutations: [],
    });
  });

  it('the last custom status event of the turn decides the action, and KV events keep their order', () => {
    const payload = buildAckPayload(
      [
        event(1, { type: 'CustomStatusUpdated', status: 'first' }),
        event(2, { type: 'KeyValueSet', key: 'k', value: 'v', lastUpdatedAtMs: 7 }),
        event(3, { type: 'KeyValueCleared', key: 'k' }),
        event(4, { type: 'KeyValuesCleared' }),
        event(5, { type: 'CustomStatusUpdated', status: null }),
      ],
      [],
      [],
      {
        status: 'Completed',
        output: 'done',
        pinnedDuroxideVersion: { major: 0, minor: 1, patch: 32 },
      },
      [{ instance: 'i', executionId: 1, activityId: 9 }],
    );
    expect(JSON.parse(payload.metadata)).toMatchObject({
      status: 'Completed',
      output: 'done',
      pinned_duroxide_version: { major: 0, minor: 1, patch: 32 },
      custom_status_action: 'clear',
      custom_status_value: null,
      kv_mutations: [
        { action: 'set', key: 'k', value: 'v', last_updated_at_ms: 7 },
        { action: 'clear_key', key: 'k' },
        { action: 'clear_all' },
      ],
    });
    expect(JSON.parse(payload.cancelledActivities)).toEqual([
      { instance: 'i', execution_id: 1, activity_id: 9 },
    ]);
  });

  it('history rows carry the event as compact JSON text and the event type "Event"', () => {
    const started = event(1, { type: 'OrchestrationCompleted', output: 'x' });
    const [row] = JSON.parse(buildAckPayload([started], [], [], {}, []).historyDelta) as unknown[];
    expect(row).toEqual({
      event_id: 1,
      event_type: 'Event',
      event_data:
        '{"event_id":1,"source_event_id":null,"instance_id":"i","execution_id":1,' +
        '"timestamp_ms":1,"duroxide_version":"0.1.32","type":"OrchestrationCompleted","output":"x"}',
    });
  });

  it('an event without an id is refused before anything is sent', () => {
    expect(() =>
      buildAckPayload([event(0, { type: 'KeyValuesCleared' })], [], [], {}, [], 'i'),
    ).toThrow(/event_id must be set by runtime \(instance i\)/);
  });
});
