import { validateSchemaName } from './schema-name.js';

/**
 * A validated schema name in the three forms the migrations need. PostgreSQL folds an unquoted
 * identifier to lower case, as duroxide-pg writes it, so `folded` is the name the catalog holds;
 * `given` is kept because duroxide-pg hashes the name as given into its migration lock key.
 */
export interface SchemaNames {
  /** The name exactly as the caller passed it. */
  readonly given: string;
  /** The name as PostgreSQL stores it (lower case). */
  readonly folded: string;
  /** The name as a quoted identifier, safe to splice into SQL. */
  readonly identifier: string;
}

/**
 * Validates a schema name and derives its forms. Runs before any SQL.
 * @throws {InvalidSchemaNameError} for a name that is not a safe identifier.
 */
export function schemaNames(schema: string): SchemaNames {
  const given = validateSchemaName(schema);
  const folded = given.toLowerCase();
  return { given, folded, identifier: `"${folded}"` };
}

/** Replaces the placeholders of a migration file: `{{schema}}` and `{{schema_name}}`. */
export function bindSchema(sql: string, names: SchemaNames): string {
  return sql.replaceAll('{{schema_name}}', names.folded).replaceAll('{{schema}}', names.identifier);
}
