import type {
  AppErrorKind,
  ConfigErrorKind,
  ErrorDetails,
  PoisonMessageType,
} from './error-details.js';
import {
  expectUnitVariant,
  readBoolean,
  readNullableString,
  readString,
  readU32,
  readU64,
  variantFields,
  variantTag,
  writeU32,
  writeU64,
  type WireObject,
} from './wire-fields.js';
import { parseWireJson } from './wire-json.js';
import { WireFormatError } from './wire-format-error.js';

/**
 * The JSON text duroxide's serde_json writes for `details`, byte for byte: externally tagged
 * variants (`{"Application":{...}}`), unit kinds as bare strings (`"ActivityFailed"`).
 * @throws {WireFormatError} when an integer is not an unsigned integer below 2^53 (`u32` for the
 * poison attempt counts).
 */
export function encodeErrorDetails(details: ErrorDetails): string {
  return JSON.stringify(errorDetailsToWire(details));
}

/**
 * Reads duroxide's JSON text of an `ErrorDetails`; unknown fields are ignored.
 * @throws {WireFormatError} naming the path and the problem when the text is not JSON or not a
 * valid `ErrorDetails` (unknown variant or kind, missing field, wrong type, bad integer).
 */
export function decodeErrorDetails(json: string): ErrorDetails {
  return errorDetailsFromWire(parseWireJson(json));
}

/**
 * The plain object serde would produce for `details`, keys in serde order; `JSON.stringify` of
 * it gives {@link encodeErrorDetails}'s text.
 * @param path where the value sits in a larger document, for error messages. @default `'$'`
 * @throws {WireFormatError} as {@link encodeErrorDetails}.
 */
export function errorDetailsToWire(details: ErrorDetails, path = '$'): Record<string, unknown> {
  switch (details.type) {
    case 'Infrastructure':
      return {
        Infrastructure: {
          operation: details.operation,
          message: details.message,
          retryable: details.retryable,
        },
      };
    case 'Configuration':
      return {
        Configuration: {
          kind: configErrorKindToWire(details.kind),
          resource: details.resource,
          message: details.message,
        },
      };
    case 'Application':
      return {
        Application: {
          kind: appErrorKindToWire(details.kind),
          message: details.message,
          retryable: details.retryable,
        },
      };
    case 'Poison':
      return {
        Poison: {
          attempt_count: writeU32(details.attemptCount, `${path}.Poison.attempt_count`),
          max_attempts: writeU32(details.maxAttempts, `${path}.Poison.max_attempts`),
          message_type: poisonMessageTypeToWire(details.messageType, `${path}.Poison.message_type`),
          message: details.message,
        },
      };
  }
}

/**
 * Reads an `ErrorDetails` from parsed JSON (for example a jsonb column); unknown fields are
 * ignored.
 * @param path where the value sits in a larger document, for error messages. @default `'$'`
 * @throws {WireFormatError} as {@link decodeErrorDetails}.
 */
export function errorDetailsFromWire(value: unknown, path = '$'): ErrorDetails {
  const tag = variantTag(value, path, 'error details');
  switch (tag) {
    case 'Infrastructure': {
      const at = `${path}.Infrastructure`;
      const fields = variantFields(value, tag, path);
      return {
        type: 'Infrastructure',
        operation: readString(fields, 'operation', at),
        message: readString(fields, 'message', at),
        retryable: readBoolean(fields, 'retryable', at),
      };
    }
    case 'Configuration': {
      const at = `${path}.Configuration`;
      const fields = variantFields(value, tag, path);
      return {
        type: 'Configuration',
        kind: configErrorKindFromWire(fields, at),
        resource: readString(fields, 'resource', at),
        message: readNullableString(fields, 'message', at),
      };
    }
    case 'Application': {
      const at = `${path}.Application`;
      const fields = variantFields(value, tag, path);
      return {
        type: 'Application',
        kind: appErrorKindFromWire(fields, at),
        message: readString(fields, 'message', at),
        retryable: readBoolean(fields, 'retryable', at),
      };
    }
    case 'Poison': {
      const at = `${path}.Poison`;
      const fields = variantFields(value, tag, path);
      return {
        type: 'Poison',
        attemptCount: readU32(fields, 'attempt_count', at),
        maxAttempts: readU32(fields, 'max_attempts', at),
        messageType: poisonMessageTypeFromWire(fields.message_type, `${at}.message_type`),
        message: readString(fields, 'message', at),
      };
    }
    default:
      throw new WireFormatError(path, `unknown error details variant "${tag}"`);
  }
}

function configErrorKindToWire(kind: ConfigErrorKind): string {
  return kind.type;
}

function configErrorKindFromWire(fields: WireObject, path: string): ConfigErrorKind {
  const at = `${path}.kind`;
  const value = fields.kind;
  const tag = variantTag(value, at, 'a configuration error kind');
  if (tag !== 'Nondeterminism') {
    throw new WireFormatError(at, `unknown configuration error kind "${tag}"`);
  }
  expectUnitVariant(value, tag, at);
  return { type: 'Nondeterminism' };
}

function appErrorKindToWire(kind: AppErrorKind): unknown {
  return kind.type === 'Cancelled' ? { Cancelled: { reason: kind.reason } } : kind.type;
}

function appErrorKindFromWire(fields: WireObject, path: string): AppErrorKind {
  const at = `${path}.kind`;
  const value = fields.kind;
  const tag = variantTag(value, at, 'an application error kind');
  switch (tag) {
    case 'ActivityFailed':
    case 'OrchestrationFailed':
    case 'Panicked':
      expectUnitVariant(value, tag, at);
      return { type: tag };
    case 'Cancelled':
      return {
        type: 'Cancelled',
        reason: readString(variantFields(value, tag, at), 'reason', `${at}.Cancelled`),
      };
    default:
      throw new WireFormatError(at, `unknown application error kind "${tag}"`);
  }
}

function poisonMessageTypeToWire(target: PoisonMessageType, path: string): unknown {
  switch (target.type) {
    case 'Orchestration':
      return {
        Orchestration: {
          instance: target.instance,
          execution_id: writeU64(target.executionId, `${path}.Orchestration.execution_id`),
        },
      };
    case 'Activity':
      return {
        Activity: {
          instance: target.instance,
          execution_id: writeU64(target.executionId, `${path}.Activity.execution_id`),
          activity_name: target.activityName,
          activity_id: writeU64(target.activityId, `${path}.Activity.activity_id`),
        },
      };
    case 'FailedDeserialization':
      return {
        FailedDeserialization: {
          instance: target.instance,
          execution_id: writeU64(target.executionId, `${path}.FailedDeserialization.execution_id`),
          error: target.error,
        },
      };
  }
}

function poisonMessageTypeFromWire(value: unknown, path: string): PoisonMessageType {
  const tag = variantTag(value, path, 'a poison message type');
  const at = `${path}.${tag}`;
  switch (tag) {
    case 'Orchestration': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'Orchestration',
        instance: readString(fields, 'instance', at),
        executionId: readU64(fields, 'execution_id', at),
      };
    }
    case 'Activity': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'Activity',
        instance: readString(fields, 'instance', at),
        executionId: readU64(fields, 'execution_id', at),
        activityName: readString(fields, 'activity_name', at),
        activityId: readU64(fields, 'activity_id', at),
      };
    }
    case 'FailedDeserialization': {
      const fields = variantFields(value, tag, path);
      return {
        type: 'FailedDeserialization',
        instance: readString(fields, 'instance', at),
        executionId: readU64(fields, 'execution_id', at),
        error: readString(fields, 'error', at),
      };
    }
    default:
      throw new WireFormatError(path, `unknown poison message type "${tag}"`);
  }
}
