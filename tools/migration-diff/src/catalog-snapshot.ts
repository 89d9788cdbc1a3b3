import type pg from 'pg';

/** One function of a schema: its identity and its full definition. */
export interface FunctionDefinition {
  /** `name(identity arguments)`, e.g. `fetch_history(p_instance_id text)`. */
  readonly signature: string;
  readonly name: string;
  /** `pg_get_functiondef`, with the schema name replaced by `{schema}`. */
  readonly definition: string;
}

/** What a schema holds, in a form that diffs line by line. */
export interface CatalogSnapshot {
  /** Tables with their columns and constraints, then indexes and triggers; one item per line. */
  readonly relations: readonly string[];
  /** Functions by signature. */
  readonly functions: ReadonlyMap<string, FunctionDefinition>;
}

/**
 * Reads a schema's catalog. The output names no server-specific objects (PostgreSQL 18's NOT NULL
 * constraints are left to the columns), so two servers that hold the same schema give the same
 * snapshot.
 */
export async function snapshotCatalog(
  client: pg.ClientBase,
  schema: string,
): Promise<CatalogSnapshot> {
  const neutral = (text: string): string =>
    text.replaceAll(`"${schema}"`, '{schema}').replaceAll(schema, '{schema}');
  const relations: string[] = [];

  const tables = await client.query<{ oid: number; name: string }>(
    `SELECT oid::int AS oid, relname AS name FROM pg_class
      WHERE relnamespace = $1::regnamespace AND relkind IN ('r', 'p') ORDER BY relname`,
    [schema],
  );
  for (const table of tables.rows) {
    relations.push(`TABLE ${table.name}`);
    const columns = await client.query<{ line: string }>(
      `SELECT '    ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
              || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
              || COALESCE(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') AS line
         FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [table.oid],
    );
    const constraints = await client.query<{ line: string }>(
      `SELECT '    CONSTRAINT ' || conname || ' ' || pg_get_constraintdef(oid) AS line
         FROM pg_constraint WHERE conrelid = $1 AND contype <> 'n' ORDER BY conname`,
      [table.oid],
    );
    relations.push(
      ...columns.rows.map((r) => neutral(r.line)),
      ...constraints.rows.map((r) => neutral(r.line)),
    );
  }
  const indexes = await client.query<{ line: string }>(
    `SELECT pg_get_indexdef(i.indexrelid) AS line
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relnamespace = $1::regnamespace ORDER BY c.relname`,
    [schema],
  );
  const triggers = await client.query<{ line: string }>(
    `SELECT pg_get_triggerdef(t.oid) AS line FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = $1::regnamespace AND NOT t.tgisinternal ORDER BY c.relname, t.tgname`,
    [schema],
  );
  relations.push(
    ...indexes.rows.map((r) => neutral(r.line)),
    ...triggers.rows.map((r) => neutral(r.line)),
  );

  const functions = await client.query<{ name: string; args: string; definition: string }>(
    `SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS args,
            pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p WHERE p.pronamespace = $1::regnamespace
      ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)`,
    [schema],
  );
  return {
    relations,
    functions: new Map(
      functions.rows.map((f) => {
        const signature = `${f.name}(${f.args})`;
        return [
          signature,
          { signature, name: f.name, definition: neutral(f.definition).trimEnd() },
        ];
      }),
    ),
  };
}
