/**
 * What went wrong in a migration run:
 * - `unknown-version`: the schema has a version this package does not know (it is ahead of the
 *   code);
 * - `inconsistent-ledger`: the recorded versions are not an ordered prefix of the known ones;
 * - `corrupt-schema`: tables are missing, unexpected, or not tables, for the recorded versions;
 * - `invalid-target`: the requested target version is not a version of the track;
 * - `statement-failed`: PostgreSQL rejected a migration file (nothing of that file was applied).
 */
export type MigrationErrorCode =
  | 'unknown-version'
  | 'inconsistent-ledger'
  | 'corrupt-schema'
  | 'invalid-target'
  | 'statement-failed';

/** Thrown by the migration runner; the schema is left as it was before the failing step. */
export class MigrationError extends Error {
  /** Always `'MigrationError'`. */
  override readonly name = 'MigrationError';

  constructor(
    /** Which rule failed. */
    readonly code: MigrationErrorCode,
    /** The schema being migrated (as given). */
    readonly schema: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** True for a `MigrationError`, also one thrown by another copy of this package. */
  static isInstance(error: unknown): error is MigrationError {
    return error instanceof Error && error.name === 'MigrationError' && 'code' in error;
  }
}
