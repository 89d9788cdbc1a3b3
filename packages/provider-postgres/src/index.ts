/**
 * `@duro/provider-postgres`: a PostgreSQL provider for duro whose schema, stored procedures and
 * migration numbering match the Rust duroxide-pg provider, so TypeScript and Rust workers can
 * share one database.
 *
 * @packageDocumentation
 */
export { InvalidSchemaNameError, validateSchemaName } from './schema-name.js';
