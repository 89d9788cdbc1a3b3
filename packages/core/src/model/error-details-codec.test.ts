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
  failedDeserializationError,
  INSTANCE,
  poisonedActivityError,
} from './golden-samples.test-support.js';
import { checkGoldenFixtures, goldenFixture } from './golden-fixtures.test-support.js';

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
  'Poison.FailedDeserialization': failedDeserializationError,
};

// Fails to compile when an ErrorDetails variant is added or removed.
const everyErrorDetailsType: Record<ErrorDetails['type'], true> = {
  Infrastructure: true,
  Configuration: true,
  Application: true,
  Poison: true,
};

const fixture = (name: string) => goldenFixture('error-details', name);

describe('error details written by duroxide serde (golden fixtures)', () => {
  checkGoldenFixtures('error-details', expected, {
    encode: encodeErrorDetails,
    decode: decodeErrorDetails,
    toWire: (value) => errorDetailsToWire(value),
    fromWire: (value) => errorDetailsFromWire(value),
    variantOf: (value) => value.type,
    variants: Object.keys(everyErrorDetailsType),
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
