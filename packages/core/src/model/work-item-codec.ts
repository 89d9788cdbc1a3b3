import { errorDetailsFromWire, errorDetailsToWire } from './error-details-codec.js';
import {
  readActivityRouting,
  readDefaultedPairs,
  readNullableString,
  readNullableU64,
  readOptionalString,
  readOptionalU64,
  readString,
  readU64,
  variantFields,
  variantTag,
  writeActivityRouting,
  writeU64,
  type WireObject,
  type Writable,
} from './wire-fields.js';
import { parseWireJson } from './wire-json.js';
import { WireFormatError } from './wire-format-error.js';
import type { WorkItem, WorkItemOf } from './work-item.js';

/**
 * The JSON text duroxide's serde_json writes for `item`, byte for byte: externally tagged
 * (`{"ActivityExecute":{...}}`), fields in Rust declaration order, `null` and omitted fields
 * exactly as serde writes them. This is the text a queue row stores.
 * @throws {WireFormatError} when an id or other `u64` is not an integer from 0 to 2^53-1.
 */
export function encodeWorkItem(item: WorkItem): string {
  return JSON.stringify(workItemToWire(item));
}

/**
 * Reads one work item from duroxide's JSON text, in serde's compact form or as PostgreSQL
 * re-renders jsonb (any key order and spacing). Unknown fields are ignored; `default` fields may
 * be absent (`carry_forward_events` reads as `[]`), as may `Option` fields.
 * @throws {WireFormatError} naming the path and the problem when the text is not JSON or not a
 * work item: an unknown variant (`unknown work item variant "Foo"`), a missing field, a wrong
 * JSON type, or an integer that is negative, fractional or above 2^53-1.
 */
export function decodeWorkItem(json: string): WorkItem {
  return workItemFromWire(parseWireJson(json));
}

/**
 * The plain object serde would produce for `item`, keys in serde order, so that
 * `JSON.stringify` of it is {@link encodeWorkItem}'s text. Nested arrays and objects of `item`
 * may be shared, not copied.
 * @throws {WireFormatError} as {@link encodeWorkItem}.
 */
export function workItemToWire(item: WorkItem): Record<string, unknown> {
  switch (item.type) {
    case 'StartOrchestration': {
      const fields: Record<string, unknown> = {
        instance: item.instance,
        orchestration: item.orchestration,
        input: item.input,
        version: item.version,
        parent_instance: item.parentInstance,
        parent_id:
          item.parentId === null ? null : writeU64(item.parentId, '$.StartOrchestration.parent_id'),
      };
      if (item.parentExecutionId !== undefined) {
        fields.parent_execution_id = writeU64(
          item.parentExecutionId,
          '$.StartOrchestration.parent_execution_id',
        );
      }
      fields.execution_id = writeU64(item.executionId, '$.StartOrchestration.execution_id');
      return { StartOrchestration: fields };
    }
    case 'ContinueAsNew': {
      const fields: Record<string, unknown> = {
        instance: item.instance,
        orchestration: item.orchestration,
        input: item.input,
        version: item.version,
      };
      if (item.parentInstance !== undefined) fields.parent_instance = item.parentInstance;
      if (item.parentId !== undefined) {
        fields.parent_id = writeU64(item.parentId, '$.ContinueAsNew.parent_id');
      }
      if (item.parentExecutionId !== undefined) {
        fields.parent_execution_id = writeU64(
          item.parentExecutionId,
          '$.ContinueAsNew.parent_execution_id',
        );
      }
      fields.carry_forward_events = item.carryForwardEvents;
      if (item.initialCustomStatus !== undefined) {
        fields.initial_custom_status = item.initialCustomStatus;
      }
      return { ContinueAsNew: fields };
    }
    case 'ActivityExecute': {
      const fields: Record<string, unknown> = {
        instance: item.instance,
        execution_id: writeU64(item.executionId, '$.ActivityExecute.execution_id'),
        id: writeU64(item.id, '$.ActivityExecute.id'),
        name: item.name,
        input: item.input,
      };
      writeActivityRouting(fields, item);
      return { ActivityExecute: fields };
    }
    case 'ActivityCompleted':
      return {
        ActivityCompleted: {
          instance: item.instance,
          execution_id: writeU64(item.executionId, '$.ActivityCompleted.execution_id'),
          id: writeU64(item.id, '$.ActivityCompleted.id'),
          result: item.result,
        },
      };
    case 'ActivityFailed':
      return {
        ActivityFailed: {
          instance: item.instance,
          execution_id: writeU64(item.executionId, '$.ActivityFailed.execution_id'),
          id: writeU64(item.id, '$.ActivityFailed.id'),
          details: errorDetailsToWire(item.details, '$.ActivityFailed.details'),
        },
      };
    case 'TimerFired':
      return {
        TimerFired: {
          instance: item.instance,
          execution_id: writeU64(item.executionId, '$.TimerFired.execution_id'),
          id: writeU64(item.id, '$.TimerFired.id'),
          fire_at_ms: writeU64(item.fireAtMs, '$.TimerFired.fire_at_ms'),
        },
      };
    case 'ExternalRaised':
      return { ExternalRaised: { instance: item.instance, name: item.name, data: item.data } };
    case 'QueueMessage':
      return { QueueMessage: { instance: item.instance, name: item.name, data: item.data } };
    case 'CancelInstance':
      return { CancelInstance: { instance: item.instance, reason: item.reason } };
    case 'SubOrchCompleted':
      return {
        SubOrchCompleted: {
          parent_instance: item.parentInstance,
          parent_execution_id: writeU64(
            item.parentExecutionId,
            '$.SubOrchCompleted.parent_execution_id',
          ),
          parent_id: writeU64(item.parentId, '$.SubOrchCompleted.parent_id'),
          result: item.result,
        },
      };
    case 'SubOrchFailed':
      return {
        SubOrchFailed: {
          parent_instance: item.parentInstance,
          parent_execution_id: writeU64(
            item.parentExecutionId,
            '$.SubOrchFailed.parent_execution_id',
          ),
          parent_id: writeU64(item.parentId, '$.SubOrchFailed.parent_id'),
          details: errorDetailsToWire(item.details, '$.SubOrchFailed.details'),
        },
      };
  }
}

/**
 * Reads one work item from parsed JSON (for example a jsonb value), with the same rules as
 * {@link decodeWorkItem}.
 * @param path where the value sits in a larger document, for error messages. @default `'$'`
 * @throws {WireFormatError} as {@link decodeWorkItem}.
 */
export function workItemFromWire(value: unknown, path = '$'): WorkItem {
  const tag = variantTag(value, path, 'a work item');
  const at = `${path}.${tag}`;
  switch (tag) {
    case 'StartOrchestration':
      return startOrchestrationFromWire(variantFields(value, tag, path), at);
    case 'ContinueAsNew':
      return continueAsNewFromWire(variantFields(value, tag, path), at);
    case 'ActivityExecute':
      return activityExecuteFromWire(variantFields(value, tag, path), at);
    case 'ActivityCompleted': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'ActivityCompleted',
        instance: readString(fields, 'instance', at),
        executionId: readU64(fields, 'execution_id', at),
        id: readU64(fields, 'id', at),
        result: readString(fields, 'result', at),
      };
    }
    case 'ActivityFailed': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'ActivityFailed',
        instance: readString(fields, 'instance', at),
        executionId: readU64(fields, 'execution_id', at),
        id: readU64(fields, 'id', at),
        details: errorDetailsFromWire(fields.details, `${at}.details`),
      };
    }
    case 'TimerFired': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'TimerFired',
        instance: readString(fields, 'instance', at),
        executionId: readU64(fields, 'execution_id', at),
        id: readU64(fields, 'id', at),
        fireAtMs: readU64(fields, 'fire_at_ms', at),
      };
    }
    case 'ExternalRaised':
    case 'QueueMessage': {
      const fields = variantFields(value, tag, path);
      return {
        type: tag,
        instance: readString(fields, 'instance', at),
        name: readString(fields, 'name', at),
        data: readString(fields, 'data', at),
      };
    }
    case 'CancelInstance': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'CancelInstance',
        instance: readString(fields, 'instance', at),
        reason: readString(fields, 'reason', at),
      };
    }
    case 'SubOrchCompleted': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'SubOrchCompleted',
        parentInstance: readString(fields, 'parent_instance', at),
        parentExecutionId: readU64(fields, 'parent_execution_id', at),
        parentId: readU64(fields, 'parent_id', at),
        result: readString(fields, 'result', at),
      };
    }
    case 'SubOrchFailed': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'SubOrchFailed',
        parentInstance: readString(fields, 'parent_instance', at),
        parentExecutionId: readU64(fields, 'parent_execution_id', at),
        parentId: readU64(fields, 'parent_id', at),
        details: errorDetailsFromWire(fields.details, `${at}.details`),
      };
    }
    default:
      throw new WireFormatError(path, `unknown work item variant "${tag}"`);
  }
}

function startOrchestrationFromWire(
  fields: WireObject,
  at: string,
): WorkItemOf<'StartOrchestration'> {
  const item: Writable<WorkItemOf<'StartOrchestration'>> = {
    type: 'StartOrchestration',
    instance: readString(fields, 'instance', at),
    orchestration: readString(fields, 'orchestration', at),
    input: readString(fields, 'input', at),
    version: readNullableString(fields, 'version', at),
    parentInstance: readNullableString(fields, 'parent_instance', at),
    parentId: readNullableU64(fields, 'parent_id', at),
    executionId: readU64(fields, 'execution_id', at),
  };
  const parentExecutionId = readOptionalU64(fields, 'parent_execution_id', at);
  if (parentExecutionId !== undefined) item.parentExecutionId = parentExecutionId;
  return item;
}

function continueAsNewFromWire(fields: WireObject, at: string): WorkItemOf<'ContinueAsNew'> {
  const item: Writable<WorkItemOf<'ContinueAsNew'>> = {
    type: 'ContinueAsNew',
    instance: readString(fields, 'instance', at),
    orchestration: readString(fields, 'orchestration', at),
    input: readString(fields, 'input', at),
    version: readNullableString(fields, 'version', at),
    carryForwardEvents: readDefaultedPairs(fields, 'carry_forward_events', at),
  };
  const parentInstance = readOptionalString(fields, 'parent_instance', at);
  if (parentInstance !== undefined) item.parentInstance = parentInstance;
  const parentId = readOptionalU64(fields, 'parent_id', at);
  if (parentId !== undefined) item.parentId = parentId;
  const parentExecutionId = readOptionalU64(fields, 'parent_execution_id', at);
  if (parentExecutionId !== undefined) item.parentExecutionId = parentExecutionId;
  const initialCustomStatus = readOptionalString(fields, 'initial_custom_status', at);
  if (initialCustomStatus !== undefined) item.initialCustomStatus = initialCustomStatus;
  return item;
}

function activityExecuteFromWire(fields: WireObject, at: string): WorkItemOf<'ActivityExecute'> {
  const item: Writable<WorkItemOf<'ActivityExecute'>> = {
    type: 'ActivityExecute',
    instance: readString(fields, 'instance', at),
    executionId: readU64(fields, 'execution_id', at),
    id: readU64(fields, 'id', at),
    name: readString(fields, 'name', at),
    input: readString(fields, 'input', at),
  };
  readActivityRouting(fields, at, item);
  return item;
}
