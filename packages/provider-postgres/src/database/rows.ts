import { ProviderError } from '@duro/core';

/**
 * Typed access to one result row of a stored procedure. `pg` returns `bigint` columns as decimal
 * strings, `integer` as numbers, `timestamptz` as `Date` and `jsonb` already parsed; these
 * readers turn them into the contract's numbers (epoch ms for times) and check the shape, so a
 * schema that does not match the provider fails with a message naming the column.
 * @internal
 */
export class RowReader {
  readonly #row: Readonly<Record<string, unknown>>;

  constructor(
    /** The operation whose result this is, for error messages. */
    readonly operation: string,
    row: unknown,
  ) {
    if (typeof row !== 'object' || row === null) throw this.#mismatch('the row', 'an object', row);
    this.#row = row as Record<string, unknown>;
  }

  /** A non-null text column. */
  text(column: string): string {
    const value = this.#row[column];
    if (typeof value !== 'string') throw this.#mismatch(column, 'text', value);
    return value;
  }

  /** A text column that may be null. */
  optionalText(column: string): string | null {
    return this.#row[column] == null ? null : this.text(column);
  }

  /** A non-null `integer` or `bigint` column that fits a JavaScript number exactly. */
  integer(column: string): number {
    const value = this.#row[column];
    const parsed = typeof value === 'string' ? Number(value) : value;
    if (typeof parsed !== 'number' || !Number.isSafeInteger(parsed)) {
      throw this.#mismatch(column, 'an integer up to 2^53-1', value);
    }
    return parsed;
  }

  /** A non-null `bigint` column, whole (`pg` returns it as decimal text). */
  bigint(column: string): bigint {
    const value = this.#row[column];
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value !== 'string' || !/^-?\d+$/.test(value)) {
      throw this.#mismatch(column, 'a bigint', value);
    }
    return BigInt(value);
  }

  /** An `integer` or `bigint` column that may be null. */
  optionalInteger(column: string): number | null {
    return this.#row[column] == null ? null : this.integer(column);
  }

  /** A non-null boolean column. */
  boolean(column: string): boolean {
    const value = this.#row[column];
    if (typeof value !== 'boolean') throw this.#mismatch(column, 'a boolean', value);
    return value;
  }

  /** A non-null `timestamptz` column, as epoch milliseconds. */
  epochMs(column: string): number {
    const value = this.#row[column];
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
      throw this.#mismatch(column, 'a timestamp', value);
    }
    return value.getTime();
  }

  /** A `timestamptz` column that may be null, as epoch milliseconds. */
  optionalEpochMs(column: string): number | null {
    return this.#row[column] == null ? null : this.epochMs(column);
  }

  /** A `jsonb` column, as `pg` parsed it. */
  json(column: string): unknown {
    return this.#row[column];
  }

  #mismatch(column: string, expected: string, value: unknown): ProviderError {
    const got = value === null ? 'null' : typeof value;
    return ProviderError.permanent(
      this.operation,
      `unexpected result from the database: ${column} should be ${expected}, got ${got}; ` +
        'is the schema migrated by a compatible version?',
    );
  }
}

/** One {@link RowReader} per row. @internal */
export function readRows(operation: string, rows: readonly unknown[]): RowReader[] {
  return rows.map((row) => new RowReader(operation, row));
}

/** The single row a procedure returns, or `null` when it returned none. @internal */
export function readOptionalRow(operation: string, rows: readonly unknown[]): RowReader | null {
  return rows[0] === undefined ? null : new RowReader(operation, rows[0]);
}
