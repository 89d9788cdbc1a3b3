import { describe, expect, it } from 'vitest';
import { decodeErrorDetails } from './error-details-codec.js';
import type { Event } from './event.js';
import { decodeEvent, encodeEvent, eventFromWire } from './event-codec.js';
import { WireFormatError } from './wire-format-error.js';
import { decodeWorkItem, encodeWorkItem } from './work-item-codec.js';

function failure(run: () => unknown): WireFormatError {
  try {
    run();
  } catch (error) {
    if (WireFormatError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a WireFormatError');
}

const timer: Event = {
  eventId: 2,
  sourceEventId: null,
  instanceId: 'i',
  executionId: 1,
  timestampMs: 5,
  duroxideVersion: '0.1.32',
  kind: { type: 'TimerCreated', fireAtMs: 9 },
};

describe('wire format errors', () => {
  it('text that is not JSON is reported at the root', () => {
    const error = failure(() => decodeEvent('{"event_id":'));
    expect(error.path).toBe('$');
    expect(error.problem).toMatch(/^not valid JSON: /);
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(failure(() => decodeWorkItem(undefined as unknown as string)).problem).toBe(
      'expected JSON text, found undefined',
    );
  });

  it('an error deep inside a work item names the whole path to it', () => {
    const text =
      '{"ActivityFailed":{"instance":"i","execution_id":1,"id":2,"details":{"Poison":{"attempt_count":1,"max_attempts":10,"message_type":{"Activity":{"instance":"i","execution_id":1,"activity_name":"A"}},"message":""}}}}';
    const error = failure(() => decodeWorkItem(text));
    expect(error.path).toBe('$.ActivityFailed.details.Poison.message_type.Activity.activity_id');
    expect(error.message).toBe(
      'missing required field "activity_id" at $.ActivityFailed.details.Poison.message_type.Activity.activity_id',
    );
  });

  it('a missing error details field is named like any other missing field', () => {
    const error = failure(() =>
      decodeEvent(
        '{"event_id":3,"source_event_id":2,"instance_id":"i","execution_id":1,"timestamp_ms":5,"duroxide_version":"0.1.32","type":"ActivityFailed"}',
      ),
    );
    expect([error.path, error.problem]).toEqual(['$.details', 'missing required field "details"']);
    const kind = failure(() =>
      decodeErrorDetails('{"Application":{"message":"","retryable":false}}'),
    );
    expect([kind.path, kind.problem]).toEqual([
      '$.Application.kind',
      'missing required field "kind"',
    ]);
  });

  it('a value decoded from inside a larger document reports paths from that document', () => {
    const error = failure(() =>
      eventFromWire({ ...JSON.parse(encodeEvent(timer)), fire_at_ms: -3 }, '$[7]'),
    );
    expect(error.path).toBe('$[7].fire_at_ms');
  });

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['unsafe', 2 ** 53],
    ['not a number', Number.NaN],
  ])('encoding a %s integer fails instead of writing what Rust cannot read', (_name, value) => {
    expect(failure(() => encodeEvent({ ...timer, eventId: value })).path).toBe('$.event_id');
    expect(
      failure(() => encodeEvent({ ...timer, kind: { type: 'TimerCreated', fireAtMs: value } }))
        .path,
    ).toBe('$.fire_at_ms');
    expect(
      failure(() =>
        encodeWorkItem({
          type: 'TimerFired',
          instance: 'i',
          executionId: 1,
          id: value,
          fireAtMs: 9,
        }),
      ).path,
    ).toBe('$.TimerFired.id');
  });

  it('encoding a poison attempt count above u32 fails naming the nested field', () => {
    const error = failure(() =>
      encodeEvent({
        ...timer,
        kind: {
          type: 'OrchestrationFailed',
          details: {
            type: 'Poison',
            attemptCount: 2 ** 32,
            maxAttempts: 10,
            messageType: { type: 'Orchestration', instance: 'i', executionId: 1 },
            message: '[]',
          },
        },
      }),
    );
    expect(error.path).toBe('$.details.Poison.attempt_count');
    expect(error.problem).toContain('the largest u32');
  });

  it('is recognised across copies of the package by its brand', () => {
    const error = new WireFormatError('$.type', 'unknown history event type "Foo"');
    expect(WireFormatError.isInstance(error)).toBe(true);
    expect(WireFormatError.isInstance(new Error('x'))).toBe(false);
    expect(WireFormatError.isInstance(null)).toBe(false);
    expect(error.name).toBe('WireFormatError');
    expect(error.message).toBe('unknown history event type "Foo" at $.type');
  });
});
