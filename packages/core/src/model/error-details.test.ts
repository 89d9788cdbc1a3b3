import { describe, expect, it } from 'vitest';
import {
  errorCategory,
  errorDisplayMessage,
  isRetryableError,
  type ErrorDetails,
} from './error-details.js';

const cases: Array<[string, ErrorDetails, string]> = [
  [
    'infrastructure',
    {
      type: 'Infrastructure',
      operation: 'ack_orchestration_item',
      message: 'Invalid lock token',
      retryable: false,
    },
    'infrastructure:ack_orchestration_item: Invalid lock token',
  ],
  [
    'nondeterminism with a message',
    {
      type: 'Configuration',
      kind: { type: 'Nondeterminism' },
      resource: 'Orch',
      message: 'expected timer',
    },
    'nondeterministic: expected timer',
  ],
  [
    'nondeterminism without a message',
    { type: 'Configuration', kind: { type: 'Nondeterminism' }, resource: 'Orch', message: null },
    'nondeterministic in Orch',
  ],
  [
    'cancellation',
    {
      type: 'Application',
      kind: { type: 'Cancelled', reason: 'user' },
      message: '',
      retryable: false,
    },
    'canceled: user',
  ],
  [
    'panic',
    { type: 'Application', kind: { type: 'Panicked' }, message: 'boom', retryable: false },
    'orchestration panicked: boom',
  ],
  [
    'activity failure',
    {
      type: 'Application',
      kind: { type: 'ActivityFailed' },
      message: 'no stock',
      retryable: false,
    },
    'no stock',
  ],
  [
    'poisoned orchestration',
    {
      type: 'Poison',
      attemptCount: 11,
      maxAttempts: 10,
      messageType: { type: 'Orchestration', instance: 'o-1', executionId: 1 },
      message: '[]',
    },
    'poison: orchestration o-1 exceeded 11 attempts (max 10)',
  ],
  [
    'poisoned activity',
    {
      type: 'Poison',
      attemptCount: 3,
      maxAttempts: 2,
      messageType: {
        type: 'Activity',
        instance: 'o-1',
        executionId: 1,
        activityName: 'Charge',
        activityId: 2,
      },
      message: '{}',
    },
    'poison: activity Charge#2 exceeded 3 attempts (max 2)',
  ],
  [
    'undecodable history',
    {
      type: 'Poison',
      attemptCount: 4,
      maxAttempts: 3,
      messageType: {
        type: 'FailedDeserialization',
        instance: 'o-2',
        executionId: 2,
        error: 'unknown variant',
      },
      message: '',
    },
    'poison: orchestration o-2 history deserialization failed after 4 attempts (max 3): unknown variant',
  ],
];

describe('error details', () => {
  it.each(cases)('displays %s as duroxide does', (_name, details, text) => {
    expect(errorDisplayMessage(details)).toBe(text);
  });

  it('never treats configuration or poison errors as retryable', () => {
    for (const [, details] of cases) {
      const expected =
        details.type === 'Infrastructure' || details.type === 'Application'
          ? details.retryable
          : false;
      expect(isRetryableError(details)).toBe(expected);
    }
    expect(
      isRetryableError({
        type: 'Infrastructure',
        operation: 'read',
        message: 'timeout',
        retryable: true,
      }),
    ).toBe(true);
  });

  it('names the category of each variant', () => {
    expect(cases.map(([, d]) => errorCategory(d))).toEqual([
      'infrastructure',
      'configuration',
      'configuration',
      'application',
      'application',
      'application',
      'poison',
      'poison',
      'poison',
    ]);
  });
});
