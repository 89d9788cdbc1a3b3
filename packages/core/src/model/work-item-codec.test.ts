import { describe, expect, it } from 'vitest';
import {
  activityError,
  CARRIED,
  CHILD_INSTANCE,
  ESCAPES,
  EXECUTION_ID,
  FIRE_AT_MS,
  INPUT,
  INSTANCE,
  PARENT_INSTANCE,
  poisonedActivityError,
  RESULT,
} from './golden-samples.test-support.js';
import { checkGoldenFixtures, goldenFixture } from './golden-fixtures.test-support.js';
import {
  decodeWorkItem,
  encodeWorkItem,
  workItemFromWire,
  workItemToWire,
} from './work-item-codec.js';
import type { WorkItem, WorkItemType } from './work-item.js';

const start = {
  type: 'StartOrchestration',
  instance: INSTANCE,
  orchestration: 'Checkout',
  input: INPUT,
  version: null,
  parentInstance: null,
  parentId: null,
  executionId: 1,
} as const;
const continueAsNew = {
  type: 'ContinueAsNew',
  instance: INSTANCE,
  orchestration: 'Checkout',
  input: INPUT,
  version: null,
  carryForwardEvents: [],
} as const;
const parentLink = { parentInstance: PARENT_INSTANCE, parentId: 4, parentExecutionId: 1 };
const execute = {
  type: 'ActivityExecute',
  instance: INSTANCE,
  executionId: EXECUTION_ID,
  id: 2,
  name: 'Charge',
  input: INPUT,
} as const;

/** The value each file in `__fixtures__/work-items/` holds, built as tools/wire-fixtures does. */
const expected: Record<string, WorkItem> = {
  StartOrchestration: start,
  'StartOrchestration.with-version': { ...start, version: '1.2.0' },
  'StartOrchestration.child': {
    ...start,
    ...parentLink,
    instance: CHILD_INSTANCE,
    version: '1.2.0',
  },
  ContinueAsNew: continueAsNew,
  'ContinueAsNew.carry-forward': {
    ...continueAsNew,
    version: '1.2.0',
    carryForwardEvents: CARRIED,
    initialCustomStatus: '{"stage":"waiting"}',
  },
  'ContinueAsNew.child': { ...continueAsNew, ...parentLink, version: '1.2.0' },
  'ContinueAsNew.child-carry-forward': {
    ...continueAsNew,
    ...parentLink,
    carryForwardEvents: CARRIED,
    initialCustomStatus: 'half way',
  },
  ActivityExecute: execute,
  'ActivityExecute.with-session': { ...execute, sessionId: 'cart-7' },
  'ActivityExecute.with-tag': { ...execute, tag: 'gpu' },
  'ActivityExecute.with-session-and-tag': { ...execute, sessionId: 'cart-7', tag: 'gpu' },
  ActivityCompleted: {
    type: 'ActivityCompleted',
    instance: INSTANCE,
    executionId: EXECUTION_ID,
    id: 2,
    result: RESULT,
  },
  ActivityFailed: {
    type: 'ActivityFailed',
    instance: INSTANCE,
    executionId: EXECUTION_ID,
    id: 2,
    details: activityError,
  },
  'ActivityFailed.poison': {
    type: 'ActivityFailed',
    instance: INSTANCE,
    executionId: EXECUTION_ID,
    id: 3,
    details: poisonedActivityError,
  },
  TimerFired: {
    type: 'TimerFired',
    instance: INSTANCE,
    executionId: EXECUTION_ID,
    id: 2,
    fireAtMs: FIRE_AT_MS,
  },
  ExternalRaised: {
    type: 'ExternalRaised',
    instance: INSTANCE,
    name: 'approval',
    data: '{"ok":true}',
  },
  'ExternalRaised.escapes': {
    type: 'ExternalRaised',
    instance: INSTANCE,
    name: ESCAPES,
    data: ESCAPES,
  },
  QueueMessage: { type: 'QueueMessage', instance: INSTANCE, name: 'inbox', data: 'hello' },
  CancelInstance: { type: 'CancelInstance', instance: INSTANCE, reason: 'user requested' },
  SubOrchCompleted: {
    type: 'SubOrchCompleted',
    parentInstance: PARENT_INSTANCE,
    parentExecutionId: 1,
    parentId: 4,
    result: RESULT,
  },
  SubOrchFailed: {
    type: 'SubOrchFailed',
    parentInstance: PARENT_INSTANCE,
    parentExecutionId: 1,
    parentId: 4,
    details: activityError,
  },
};

// Fails to compile when a work-item variant is added or removed.
const everyWorkItemType: Record<WorkItemType, true> = {
  StartOrchestration: true,
  ContinueAsNew: true,
  ActivityExecute: true,
  ActivityCompleted: true,
  ActivityFailed: true,
  TimerFired: true,
  ExternalRaised: true,
  QueueMessage: true,
  CancelInstance: true,
  SubOrchCompleted: true,
  SubOrchFailed: true,
};

const fixture = (name: string) => goldenFixture('work-items', name);

describe('work items written by duroxide serde (golden fixtures)', () => {
  checkGoldenFixtures('work-items', expected, {
    encode: encodeWorkItem,
    decode: decodeWorkItem,
    toWire: workItemToWire,
    fromWire: (value) => workItemFromWire(value),
    variantOf: (value) => value.type,
    variants: Object.keys(everyWorkItemType),
  });

  it('ContinueAsNew always writes carry_forward_events while its parent link is omitted when absent', () => {
    expect(fixture('ContinueAsNew')).toBe(
      `{"ContinueAsNew":{"instance":"${INSTANCE}","orchestration":"Checkout","input":${JSON.stringify(INPUT)},"version":null,"carry_forward_events":[]}}`,
    );
  });

  it('StartOrchestration writes the parent link as null but omits parent_execution_id when absent', () => {
    expect(fixture('StartOrchestration')).toContain(
      '"version":null,"parent_instance":null,"parent_id":null,"execution_id":1}}',
    );
    expect(fixture('StartOrchestration.child')).toContain(
      '"parent_id":4,"parent_execution_id":1,"execution_id":1}}',
    );
  });
});
