import { createHash } from 'node:crypto';
import type { SchemaNames } from '../migrations/schema-sql.js';

/** PostgreSQL's identifier limit, which also bounds prepared-statement names. */
const MAX_NAME_BYTES = 63;

/**
 * One SQL statement of the provider, written once for every schema: `sql` receives the schema
 * as a quoted identifier (already validated) and returns the text. Hot-path statements carry `preparedAs`, a short
 * tag from which each schema gets its own prepared-statement name, so PostgreSQL parses and plans
 * them once per connection.
 */
export interface Statement {
  /** The duroxide operation name reported in errors, such as `fetch_orchestration_item`. */
  readonly operation: string;
  /**
   * The SQL text for a schema, given as a quoted identifier such as `"duroxide"`. A statement
   * that claims work puts `claimCommit` right after its `FROM` clause: empty when claims commit
   * durably, else the clause that lets the claim's commit skip the wait for the disk (see
   * `claim-commit.ts`).
   */
  readonly sql: (schema: string, claimCommit: string) => string;
  /** Tag of the prepared statement, such as `fetch_orch`; unprepared when absent. */
  readonly preparedAs?: string;
}

/** The text and, for prepared statements, the name one schema uses for a {@link Statement}. */
export interface SchemaStatement {
  readonly text: string;
  readonly name?: string;
}

/**
 * The prepared-statement name of `tag` in `schema`: `duro_<tag>_<schema>`, or, when that is
 * longer than 63 bytes (PostgreSQL would silently truncate it and two schemas could then share
 * a name), `duro_<tag>_` plus a hash of the schema name.
 */
export function preparedStatementName(tag: string, schema: string): string {
  const plain = `duro_${tag}_${schema}`;
  if (Buffer.byteLength(plain) <= MAX_NAME_BYTES) return plain;
  return `duro_${tag}_${createHash('sha256').update(schema).digest('hex').slice(0, 24)}`;
}

/** Builds a {@link SchemaStatement} for `schema`, with the claims' commit clause `claimCommit`. */
export function forSchema(
  statement: Statement,
  schema: SchemaNames,
  claimCommit: string,
): SchemaStatement {
  const text = statement.sql(schema.identifier, claimCommit);
  return statement.preparedAs === undefined
    ? { text }
    : { text, name: preparedStatementName(statement.preparedAs, schema.folded) };
}
