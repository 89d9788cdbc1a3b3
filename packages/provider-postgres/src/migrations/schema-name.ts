/**
 * A schema name the provider accepts: `[A-Za-z_][A-Za-z0-9_]*`, the rule duroxide-pg applies, so
 * the name can be spliced into SQL (schema-qualified function names, migration bodies) unquoted.
 * As there, PostgreSQL folds it to lower case. We also refuse names over 63 bytes, which
 * PostgreSQL would silently truncate (two long names could then meet in one schema).
 */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Thrown for a schema name that is not a safe identifier; nothing has run when it is thrown. */
export class InvalidSchemaNameError extends Error {
  /** Always `'InvalidSchemaNameError'`. */
  override readonly name = 'InvalidSchemaNameError';

  constructor(
    /** The refused name. */
    readonly schema: string,
  ) {
    super(
      `invalid schema name ${JSON.stringify(schema)}: use 1 to 63 ASCII letters, digits and ` +
        'underscores, starting with a letter or underscore',
    );
  }
}

/**
 * Returns the name when it is a safe schema identifier.
 * @throws {InvalidSchemaNameError} for anything else, such as `a; drop table x`.
 */
export function validateSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new InvalidSchemaNameError(schema);
  return schema;
}
