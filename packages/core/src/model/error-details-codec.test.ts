import { describe, expect, it } from 'vitest';
import type { ErrorDetails } from './error-details.js';
import {
  decodeErrorDetails,
  encodeErrorDetails,
  errorDetailsFromWire,
  errorDetailsToWire,
} from './error-details-codec.js';
import {
  activityError,
  EXECUTION_ID,
  goldenFixtures,
  INSTANCE,
  poisonedActivityError,
} from './golden-samples.test-support.js';

const nondeterminism = {
  type: 'Configuration',
  kind: { type: 'Nondeterminism' },
  resource: 'Checkout',
} as const;
const application = { type: 'Application', message: '', retryable: false } as const;
const poison = { type: 'Poison', attemptCount: 11, maxAttempts: 10 } as const;

/** The value each file in `__fixtures__/error-details/` holds, built as tools/wire-fixtures does. */
const expected: Record<string, ErrorDetails> = {
  Infrastructure: {
    type: 'Infrastructure',
    operation: 'ack_orchestration_item',
    message: 'Database error: connection reset',
    retryable: true,
  },
  'Configuration.Nondeterminism': {
    ...nondeterminism,
    message: 'expected ActivityScheduled, found TimerCreated',
  },
  'Configuration.Nondeterminism.without-message': { ...nondeterminism, message: null },
  'Application.ActivityFailed': activityError,
  'Application.ActivityFailed.retryable': {
    ...application,
    kind: { type: 'ActivityFailed' },
    message: 'gateway timeout',
    retryable: true,
  },
  'Application.OrchestrationFailed': {
    ...application,
    kind: { type: 'OrchestrationFailed' },
    message: 'Error: out of stock',
  },
  'Application.Panicked': {
    ...application,
    kind: { type: 'Panicked' },
    message: 'index out of bounds',
  },
  'Application.Cancelled': {
    ...application,
    kind: { type: 'Cancelled', reason: 'user requested' },
  },
  'Poison.Orchestration': {
    ...poison,
    messageType: { type: 'Orchestration', instance: INSTANCE, executionId: EXECUTION_ID },
    message: '[]',
  },
  'Poison.Activity': poisonedActivityError,
  'Poison.FailedDeserialization': {
    ...poison,
    messageType: {
      type: 'FailedDeserialization',
      instance: INSTANCE,
      executionId: EXECUTION_ID,
      error: 'unknown variant `Foo`',
    },
    message: '',
  },
};

const fixtures = goldenFixtures('error-details');
const names = [...fixtures.keys()];

function fixture(name: string): string {
  const text = fixtures.get(name);
  if (text === undefined) throw new Error(`no fixture error-details/${name}.json`);
  return text;
}

describe('error details written by duroxide serde (golden fixtures)', () => {
  it('every golden error-details file has a value built in code, and every such value a file', () => {
    expect(names).toEqual(Object.keys(expected).sort());
  });

  it.each(names)('%s decodes to the value built in code', (name) => {
    expect(decodeErrorDetails(fixture(name))).toEqual(expected[name]);
  });

  it.each(names)('%s re-encodes after decoding to the same bytes', (name) => {
    expect(encodeErrorDetails(decodeErrorDetails(fixture(name)))).toBe(fixture(name));
  });

  it.each(names)('encoding the %s value built in code gives the serde bytes', (name) => {
    expect(encodeErrorDetails(expected[name] as ErrorDetails)).toBe(fixture(name));
  });

  it.each(names)('%s as a wire object is what JSON.parse gives, keys in serde order', (name) => {
    const wire = errorDetailsToWire(expected[name] as ErrorDetails);
    expect(wire).toEqual(JSON.parse(fixture(name)));
    expect(JSON.stringify(wire)).toBe(fixture(name));
    expect(errorDetailsFromWire(JSON.parse(fixture(name)))).toEqual(expected[name]);
  });

  it('unit kinds are bare strings and the Cancelled kind is externally tagged', () => {
    expect(fixture('Configuration.Nondeterminism')).toContain('"kind":"Nondeterminism"');
    expect(fixture('Application.Panicked')).toContain('"kind":"Panicked"');
    expect(fixture('Application.Cancelled')).toContain(
      '"kind":{"Cancelled":{"reason":"user requested"}}',
    );
    expect(fixture('Configuration.Nondeterminism.without-message')).toMatch(/"message":null}}$/);
  });
});
