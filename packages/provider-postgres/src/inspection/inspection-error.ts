/**
 * What an {@link InspectionError} is about: `invalid-request` for a filter, limit or cursor that
 * cannot be read; `schema-not-migrated` for a schema without duro's tables.
 */
export type InspectionErrorCode = 'invalid-request' | 'schema-not-migrated';

/** A refused inspection read; the message names what was wrong. */
export class InspectionError extends Error {
  /** Always `InspectionError`, also across copies of this package. */
  override readonly name = 'InspectionError';

  constructor(
    message: string,
    /** What the error is about: a request that cannot be read, or a schema that is not migrated. */
    readonly code: InspectionErrorCode,
  ) {
    super(message);
  }

  /** Whether `error` is an `InspectionError`, also one from another copy of this package. */
  static isInstance(error: unknown): error is InspectionError {
    return error instanceof Error && error.name === 'InspectionError' && 'code' in error;
  }
}
