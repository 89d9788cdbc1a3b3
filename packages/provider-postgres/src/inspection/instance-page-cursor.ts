import { InspectionError } from './inspection-error.js';

/**
 * A position in the newest-first order of instances: the instance's creation time in epoch
 * microseconds (the column's own precision, so no two positions collapse) and its id.
 */
export interface InstancePosition {
  readonly createdAtUs: bigint;
  readonly instanceId: string;
}

/** `position` as an opaque, URL-safe cursor. */
export function encodeInstanceCursor(position: InstancePosition): string {
  return Buffer.from(
    JSON.stringify([position.createdAtUs.toString(), position.instanceId]),
  ).toString('base64url');
}

/**
 * The position `cursor` names.
 * @throws {InspectionError} (`invalid-request`) when it is not a cursor a page returned.
 */
export function decodeInstanceCursor(cursor: string): InstancePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'string' ||
    !/^-?\d{1,19}$/.test(parsed[0]) ||
    typeof parsed[1] !== 'string'
  ) {
    throw new InspectionError(
      `not a page cursor: '${cursor.slice(0, 80)}' (use the 'next' value of a page)`,
      'invalid-request',
    );
  }
  return { createdAtUs: BigInt(parsed[0]), instanceId: parsed[1] };
}
