/**
 * Typed access to the fields of parsed wire JSON, shared by the event, work-item and
 * error-details codecs. Every reader takes the object, the field name and the object's own
 * JSONPath; the field's path is only built when something is wrong, so the happy path allocates
 * nothing beyond the values themselves.
 *
 * Absent and `null` follow serde's derive rules: a required field must be present; an `Option`
 * field reads absent or `null` as none; a `#[serde(default)]` field reads absent as its default.
 */
import { WireFormatError } from './wire-format-error.js';

/** A parsed JSON object. @internal */
export type WireObject = { readonly [key: string]: unknown };

/** `T` without `readonly`, for building a decoded value field by field. @internal */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The largest unsigned 32-bit integer, duroxide's `u32`. */
const U32_MAX = 0xffff_ffff;

/** `value` as an object, or a {@link WireFormatError} at `path`. @internal */
export function expectObject(value: unknown, path: string): WireObject {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return value as WireObject;
  }
  throw wrongType('an object', value, path);
}

/** A required string field. @internal */
export function readString(object: WireObject, key: string, path: string): string {
  const value = object[key];
  if (typeof value === 'string') return value;
  throw fieldError('a string', value, key, path);
}

/** A required boolean field. @internal */
export function readBoolean(object: WireObject, key: string, path: string): boolean {
  const value = object[key];
  if (typeof value === 'boolean') return value;
  throw fieldError('a boolean', value, key, path);
}

/** A required `u64` field. @internal */
export function readU64(object: WireObject, key: string, path: string): number {
  const value = object[key];
  if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
  if (value === undefined) throw missingField(key, path);
  throw integerError(value, Number.MAX_SAFE_INTEGER, `${path}.${key}`);
}

/** A `#[serde(default)] u64` field: absent reads as 0, `null` is an error. @internal */
export function readDefaultedU64(object: WireObject, key: string, path: string): number {
  return object[key] === undefined ? 0 : readU64(object, key, path);
}

/** A required `u32` field. @internal */
export function readU32(object: WireObject, key: string, path: string): number {
  const value = object[key];
  if (Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= U32_MAX) {
    return value as number;
  }
  if (value === undefined) throw missingField(key, path);
  throw integerError(value, U32_MAX, `${path}.${key}`);
}

/** An `Option<String>` written as `null` when none: absent or `null` reads as `null`. @internal */
export function readNullableString(object: WireObject, key: string, path: string): string | null {
  return readOptionalString(object, key, path) ?? null;
}

/** An `Option<u64>` written as `null` when none: absent or `null` reads as `null`. @internal */
export function readNullableU64(object: WireObject, key: string, path: string): number | null {
  return readOptionalU64(object, key, path) ?? null;
}

/** An `Option<String>` omitted when none: absent or `null` reads as `undefined`. @internal */
export function readOptionalString(
  object: WireObject,
  key: string,
  path: string,
): string | undefined {
  const value = object[key];
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  throw wrongType('a string or null', value, `${path}.${key}`);
}

/** An `Option<u64>` omitted when none: absent or `null` reads as `undefined`. @internal */
export function readOptionalU64(object: WireObject, key: string, path: string): number | undefined {
  const value = object[key];
  return value === undefined || value === null ? undefined : readU64(object, key, path);
}

/**
 * Copies the `session_id` and `tag` options that `ActivityScheduled` and `ActivityExecute` both
 * carry onto `target`, leaving a field out when it is absent or `null`.
 * @internal
 */
export function readActivityRouting(
  object: WireObject,
  path: string,
  target: { sessionId?: string; tag?: string },
): void {
  const sessionId = readOptionalString(object, 'session_id', path);
  if (sessionId !== undefined) target.sessionId = sessionId;
  const tag = readOptionalString(object, 'tag', path);
  if (tag !== undefined) target.tag = tag;
}

/** Writes the `session_id` and `tag` options of an activity, each only when set. @internal */
export function writeActivityRouting(
  wire: Record<string, unknown>,
  source: { readonly sessionId?: string; readonly tag?: string },
): void {
  if (source.sessionId !== undefined) wire.session_id = source.sessionId;
  if (source.tag !== undefined) wire.tag = source.tag;
}

/** An `Option<Vec<(String, String)>>` omitted when none. @internal */
export function readOptionalPairs(
  object: WireObject,
  key: string,
  path: string,
): Array<readonly [string, string]> | undefined {
  const value = object[key];
  return value === undefined || value === null ? undefined : pairsFromWire(value, `${path}.${key}`);
}

/** A `#[serde(default)] Vec<(String, String)>`: absent reads as `[]`, `null` is an error. @internal */
export function readDefaultedPairs(
  object: WireObject,
  key: string,
  path: string,
): Array<readonly [string, string]> {
  const value = object[key];
  return value === undefined ? [] : pairsFromWire(value, `${path}.${key}`);
}

function pairsFromWire(value: unknown, path: string): Array<readonly [string, string]> {
  if (!Array.isArray(value)) throw wrongType('an array of [name, data] pairs', value, path);
  const pairs = new Array<readonly [string, string]>(value.length);
  for (let index = 0; index < value.length; index++) {
    const pair: unknown = value[index];
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw wrongType('a [name, data] pair', pair, `${path}[${index}]`);
    }
    const [name, data] = pair as [unknown, unknown];
    if (typeof name !== 'string') throw wrongType('a string', name, `${path}[${index}][0]`);
    if (typeof data !== 'string') throw wrongType('a string', data, `${path}[${index}][1]`);
    pairs[index] = [name, data];
  }
  return pairs;
}

/**
 * The variant name of a serde externally tagged enum value: a bare string for a unit variant, or
 * the single key of `{"Variant": {...}}`.
 * @internal
 */
export function variantTag(value: unknown, path: string, what: string): string {
  if (typeof value === 'string') return value;
  if (value === undefined && path.includes('.')) {
    throw new WireFormatError(
      path,
      `missing required field "${path.slice(path.lastIndexOf('.') + 1)}"`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw wrongType(`${what} (a variant name or an object with one key)`, value, path);
  }
  let tag: string | undefined;
  let keys = 0;
  for (const key in value) {
    tag = key;
    keys++;
  }
  if (keys !== 1 || tag === undefined) {
    throw new WireFormatError(
      path,
      `expected ${what} as an object with exactly one key, found ${keys} keys`,
    );
  }
  return tag;
}

/** The fields of the struct variant `tag` of an externally tagged value. @internal */
export function variantFields(value: unknown, tag: string, path: string): WireObject {
  if (typeof value === 'string') {
    throw new WireFormatError(path, `variant "${tag}" has fields; found it as a bare string`);
  }
  return expectObject((value as WireObject)[tag], `${path}.${tag}`);
}

/**
 * Checks the unit variant `tag` of an externally tagged value: a bare string, or (as serde_json
 * also accepts) `{"Variant": null}`.
 * @internal
 */
export function expectUnitVariant(value: unknown, tag: string, path: string): void {
  if (typeof value === 'string') return;
  const body = (value as WireObject)[tag];
  if (body !== null) {
    throw wrongType(`null (variant "${tag}" has no fields)`, body, `${path}.${tag}`);
  }
}

/**
 * `value` when it is an integer from 0 to 2^53-1, the `u64` values a JavaScript number holds
 * exactly; a {@link WireFormatError} at `path` otherwise.
 * @internal
 */
export function writeU64(value: number, path: string): number {
  if (Number.isSafeInteger(value) && value >= 0) return value;
  throw integerError(value, Number.MAX_SAFE_INTEGER, path);
}

/** `value` when it is an integer from 0 to 2^32-1 (`u32`). @internal */
export function writeU32(value: number, path: string): number {
  if (Number.isSafeInteger(value) && value >= 0 && value <= U32_MAX) return value;
  throw integerError(value, U32_MAX, path);
}

function fieldError(expected: string, value: unknown, key: string, path: string): WireFormatError {
  return value === undefined
    ? missingField(key, path)
    : wrongType(expected, value, `${path}.${key}`);
}

function missingField(key: string, path: string): WireFormatError {
  return new WireFormatError(`${path}.${key}`, `missing required field "${key}"`);
}

function integerError(value: unknown, max: number, path: string): WireFormatError {
  if (typeof value !== 'number') return wrongType('an unsigned integer', value, path);
  let problem: string;
  if (!Number.isInteger(value)) problem = 'not an integer';
  else if (value < 0) problem = 'a negative number';
  else if (max === U32_MAX) problem = `above ${U32_MAX}, the largest u32`;
  else problem = `above 2^53-1 (${max}), the largest integer a JavaScript number holds exactly`;
  return new WireFormatError(path, `expected an unsigned integer, found ${value}, ${problem}`);
}

/** A wrong-type error naming what was expected and what was found. @internal */
export function wrongType(expected: string, value: unknown, path: string): WireFormatError {
  return new WireFormatError(path, `expected ${expected}, found ${describeJson(value)}`);
}

function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
