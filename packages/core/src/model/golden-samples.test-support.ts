// Test support for the codec tests: the fixed values tools/wire-fixtures/src/samples.rs builds
// its fixtures from, rebuilt by hand in TypeScript. Keep the two files in step: a value that
// differs here fails the golden tests.
import type { ErrorDetails } from './error-details.js';
import type { EventType } from './event.js';

export const INSTANCE = 'order-7';
export const EXECUTION_ID = 2;
export const PARENT_INSTANCE = 'checkout-1';
export const CHILD_INSTANCE = 'checkout-1::sub::4';
export const TIMESTAMP_MS = 1_767_225_600_000;
export const FIRE_AT_MS = 1_767_225_630_000;
export const INPUT = '{"sku":"A-1","qty":2}';
export const RESULT = '{"charged":true}';
/** The duroxide version the fixtures are stamped with: the crate pinned in Cargo.toml. */
export const DUROXIDE_VERSION = '0.1.32';
export const ESCAPES =
  'quote " backslash \\ slash / \b\f\n\r\t \u0000\u0001\u001f del \u007f ' +
  'separators \u2028\u2029 accents é 漢字 emoji 😀 html </script>';
export const CARRIED = [
  ['approvals', '{"by":"ana"}'],
  ['approvals', 'raw text'],
] as const;

export const activityError: ErrorDetails = {
  type: 'Application',
  kind: { type: 'ActivityFailed' },
  message: 'card declined',
  retryable: false,
};

export const poisonedActivityError: ErrorDetails = {
  type: 'Poison',
  attemptCount: 11,
  maxAttempts: 10,
  messageType: {
    type: 'Activity',
    instance: INSTANCE,
    executionId: EXECUTION_ID,
    activityName: 'Charge',
    activityId: 3,
  },
  message: `{"ActivityExecute":{"instance":"${INSTANCE}","execution_id":${EXECUTION_ID},"id":3,"name":"Charge","input":"{}"}}`,
};

export const failedDeserializationError: ErrorDetails = {
  type: 'Poison',
  attemptCount: 11,
  maxAttempts: 10,
  messageType: {
    type: 'FailedDeserialization',
    instance: INSTANCE,
    executionId: EXECUTION_ID,
    error: 'unknown variant `Foo`',
  },
  message: '',
};

const everyEventType: Record<EventType, true> = {
  OrchestrationStarted: true,
  OrchestrationCompleted: true,
  OrchestrationFailed: true,
  OrchestrationContinuedAsNew: true,
  OrchestrationCancelRequested: true,
  ActivityScheduled: true,
  ActivityCompleted: true,
  ActivityFailed: true,
  ActivityCancelRequested: true,
  TimerCreated: true,
  TimerFired: true,
  ExternalSubscribed: true,
  ExternalEvent: true,
  ExternalSubscribedCancelled: true,
  QueueSubscribed: true,
  QueueEventDelivered: true,
  QueueSubscriptionCancelled: true,
  OrchestrationChained: true,
  SubOrchestrationScheduled: true,
  SubOrchestrationCompleted: true,
  SubOrchestrationFailed: true,
  SubOrchestrationCancelRequested: true,
  CustomStatusUpdated: true,
  KeyValueSet: true,
  KeyValueCleared: true,
  KeyValuesCleared: true,
};

/** Every event variant; the record above fails to compile when a variant is added or removed. */
export const EVENT_TYPES = Object.keys(everyEventType) as EventType[];
