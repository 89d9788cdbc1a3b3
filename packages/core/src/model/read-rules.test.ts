import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeErrorDetails, encodeErrorDetails } from './error-details-codec.js';
import { decodeEvent, encodeEvent } from './event-codec.js';
import { decodeWorkItem, encodeWorkItem } from './work-item-codec.js';
import { WireFormatError } from './wire-format-error.js';

// Each file in __fixtures__/read-rules/ is a hand-written input that tools/wire-fixtures fed to
// duroxide's own serde: `output` is what Rust wrote back after accepting it, `error` what it
// said when rejecting it. The codec must make the same decision and write the same bytes.
interface ReadRule {
  readonly target: 'Event' | 'WorkItem' | 'ErrorDetails';
  readonly input: string;
  readonly output?: string;
  readonly error?: string;
}

const folder = new URL('./__fixtures__/read-rules/', import.meta.url);
const rules = new Map<string, ReadRule>(
  readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => [
      file.slice(0, -'.json'.length),
      JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as ReadRule,
    ]),
);

const codecs = {
  Event: (text: string) => encodeEvent(decodeEvent(text)),
  WorkItem: (text: string) => encodeWorkItem(decodeWorkItem(text)),
  ErrorDetails: (text: string) => encodeErrorDetails(decodeErrorDetails(text)),
};

/**
 * Where the codec knowingly decides otherwise than serde, and why. JSON.parse cannot tell `9.0`
 * from `9`, keeps the last of two equal keys and accepts lone UTF-16 surrogates; JavaScript
 * numbers hold integers exactly only up to 2^53-1; and no duroxide writer emits struct variants
 * as positional arrays, so the codec does not read them.
 */
const DEVIATIONS: Record<string, 'accepted' | 'rejected'> = {
  'event.integer-written-as-float': 'accepted',
  'event.duplicate-field': 'accepted',
  'event.lone-surrogate': 'accepted',
  'event.integer-above-max-safe': 'rejected',
  'work-item.fields-as-array': 'rejected',
};

/** The path and the key words of the error the codec reports for each input serde rejects. */
const ERRORS: Record<string, readonly [path: string, problem: string]> = {
  'event.array': ['$', 'expected an object, found an array of 2'],
  'event.carried-pair-not-strings': ['$.carry_forward_events[0][1]', 'expected a string'],
  'event.carried-pair-of-three': ['$.carry_forward_events[0]', 'pair, found an array of 3'],
  'event.fractional-integer': ['$.fire_at_ms', 'found 1.5, not an integer'],
  'event.integer-above-max-safe': ['$.fire_at_ms', 'above 2^53-1'],
  'event.integer-above-u64': ['$.fire_at_ms', 'above 2^53-1'],
  'event.key-value-set-null-last-updated': ['$.last_updated_at_ms', 'found null'],
  'event.missing-field': ['$.name', 'missing required field "name"'],
  'event.missing-header-field': ['$.instance_id', 'missing required field "instance_id"'],
  'event.missing-type': ['$.type', 'missing required field "type"'],
  'event.negative-integer': ['$.fire_at_ms', 'found -1, a negative number'],
  'event.null-required-field': ['$.result', 'expected a string, found null'],
  'event.number-as-string': ['$.result', 'expected a string, found number 5'],
  'event.rust-variant-name-as-type': [
    '$.type',
    'unknown history event type "QueueSubscribed" (its wire tag is "ExternalSubscribedPersistent")',
  ],
  'event.string-as-integer': ['$.fire_at_ms', 'found the string "9"'],
  'event.unknown-type': ['$.type', 'unknown history event type "Foo"'],
  'work-item.bare-variant-name': ['$', 'variant "CancelInstance" has fields'],
  'work-item.continue-as-new-null-carry-forward': [
    '$.ContinueAsNew.carry_forward_events',
    'found null',
  ],
  'work-item.fields-as-array': ['$.CancelInstance', 'expected an object, found an array'],
  'work-item.missing-field': ['$.TimerFired.execution_id', 'missing required field'],
  'work-item.negative-integer': ['$.TimerFired.id', 'a negative number'],
  'work-item.no-variant': ['$', 'exactly one key, found 0 keys'],
  'work-item.two-variants': ['$', 'exactly one key, found 2 keys'],
  'work-item.unknown-variant': ['$', 'unknown work item variant "Foo"'],
  'error-details.attempt-count-above-u32': ['$.Poison.attempt_count', 'the largest u32'],
  'error-details.cancelled-as-bare-name': ['$.Application.kind', 'variant "Cancelled" has fields'],
  'error-details.retryable-as-string': ['$.Infrastructure.retryable', 'expected a boolean'],
  'error-details.unit-kind-with-fields': ['$.Application.kind.Panicked', 'expected null'],
  'error-details.unknown-application-kind': [
    '$.Application.kind',
    'unknown application error kind "Foo"',
  ],
  'error-details.unknown-configuration-kind': [
    '$.Configuration.kind',
    'unknown configuration error kind "LimitExceeded"',
  ],
  'error-details.unknown-poison-message-type': [
    '$.Poison.message_type',
    'unknown poison message type "Timer"',
  ],
  'error-details.unknown-variant': ['$', 'unknown error details variant "Fatal"'],
};

function failure(run: () => unknown): WireFormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof WireFormatError) return error;
    throw error;
  }
  throw new Error('expected a WireFormatError, but the input was accepted');
}

const accepted = [...rules].filter(
  ([name, rule]) => rule.output !== undefined && DEVIATIONS[name] === undefined,
);
const rejected = [...rules].filter(
  ([name, rule]) =>
    DEVIATIONS[name] === 'rejected' || (rule.error !== undefined && DEVIATIONS[name] === undefined),
);

describe('what duroxide serde accepts on read (read-rules fixtures)', () => {
  it('the fixtures hold both accepted and rejected inputs for every type', () => {
    for (const target of ['Event', 'WorkItem', 'ErrorDetails']) {
      const ofTarget = [...rules.values()].filter((rule) => rule.target === target);
      expect(ofTarget.some((rule) => rule.output !== undefined)).toBe(true);
      expect(ofTarget.some((rule) => rule.error !== undefined)).toBe(true);
    }
  });

  it.each(accepted)('%s is accepted and re-encoded to the bytes duroxide writes', (_name, rule) => {
    expect(codecs[rule.target](rule.input)).toBe(rule.output);
  });

  it.each(rejected)(
    '%s is rejected with an error naming the path and the problem',
    (name, rule) => {
      const expected = ERRORS[name];
      if (expected === undefined) throw new Error(`no expected error for ${name}`);
      const error = failure(() => codecs[rule.target](rule.input));
      expect(error.path).toBe(expected[0]);
      expect(error.problem).toContain(expected[1]);
      expect(error.message).toBe(`${error.problem} at ${error.path}`);
    },
  );

  it('every expected error belongs to an input the codec rejects', () => {
    expect(Object.keys(ERRORS).sort()).toEqual(rejected.map(([name]) => name).sort());
  });

  it('each deliberate deviation from serde is still a deviation in the fixtures', () => {
    for (const [name, decision] of Object.entries(DEVIATIONS)) {
      const rule = rules.get(name);
      expect(rule, name).toBeDefined();
      expect(rule?.[decision === 'accepted' ? 'error' : 'output'], name).toBeDefined();
    }
  });

  it.each(Object.keys(DEVIATIONS).filter((name) => DEVIATIONS[name] === 'accepted'))(
    '%s, which serde rejects, is read as JSON.parse reads it',
    (name) => {
      const rule = rules.get(name) as ReadRule;
      expect(() => codecs[rule.target](rule.input)).not.toThrow();
    },
  );
});
