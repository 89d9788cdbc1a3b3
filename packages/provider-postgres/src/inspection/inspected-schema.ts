import type pg from 'pg';

/** The connection and the schema that the inspection reads go to. */
export interface InspectedSchema {
  /** A pool (or a client) on the database. */
  readonly pool: Pick<pg.Pool, 'query'>;
  /** The schema as a quoted identifier, for SQL. */
  readonly schemaSql: string;
  /** The schema as PostgreSQL stores its name (folded to lower case). */
  readonly schemaName: string;
}
