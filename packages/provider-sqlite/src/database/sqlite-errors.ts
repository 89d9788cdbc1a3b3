import { ProviderError, WireFormatError } from '@duro/core';
import Database from 'better-sqlite3';

// Result codes (primary part of the extended code) that can succeed when tried again: another
// process holds the write lock, the disk or memory ran out, or an I/O call failed.
const RETRYABLE_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_NOMEM',
  'SQLITE_INTERRUPT',
  'SQLITE_PROTOCOL',
]);

/** The primary result code of an extended one: `SQLITE_BUSY_SNAPSHOT` → `SQLITE_BUSY`. */
function primaryCode(code: string): string {
  const match = /^SQLITE_[A-Z]+/.exec(code);
  return match === null ? code : match[0];
}

/**
 * Whether `error` is SQLite saying another connection holds the lock it needs.
 * @internal
 */
export function isBusyError(error: unknown): boolean {
  return error instanceof Database.SqliteError && primaryCode(error.code) === 'SQLITE_BUSY';
}

/**
 * Whether `error` is SQLite refusing a row that breaks a UNIQUE or PRIMARY KEY constraint.
 * @internal
 */
export function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Database.SqliteError &&
    (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || error.code === 'SQLITE_CONSTRAINT_UNIQUE')
  );
}

/**
 * The {@link ProviderError} an operation rejects with for `error`: provider errors pass
 * through; SQLite errors are retryable when trying again can help (a lock held by another
 * process, a full disk, an I/O error) and permanent otherwise (a constraint, a corrupt or
 * read-only file); a stored row that does not decode is permanent.
 * @internal
 */
export function toProviderError(operation: string, error: unknown): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  if (error instanceof Database.SqliteError) {
    const code = primaryCode(error.code);
    const detail =
      code === 'SQLITE_BUSY'
        ? `database is locked by another connection (${error.code}): ${error.message}`
        : `${error.code}: ${error.message}`;
    return RETRYABLE_CODES.has(code)
      ? ProviderError.retryable(operation, detail, { cause: error })
      : ProviderError.permanent(operation, detail, { cause: error });
  }
  if (WireFormatError.isInstance(error)) {
    return ProviderError.permanent(operation, `stored data cannot be decoded: ${error.message}`, {
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return ProviderError.permanent(operation, detail, { cause: error });
}
