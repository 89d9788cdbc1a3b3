import type pg from 'pg';

/** A column as schema-facts.json records it. */
export interface ColumnFact {
  ordinal: number;
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
  identity: string | null;
  generated: string | null;
}

/** The catalog facts of one schema, in the layout of the shared schema-facts.json fixture. */
export interface SchemaFacts {
  tables: {
    name: string;
    kind: string;
    columns: ColumnFact[];
    constraints: { name: string; type: string; definition: string }[];
    indexes: { name: string; definition: string; unique: boolean; primary: boolean }[];
    triggers: { name: string; definition: string }[];
  }[];
  sequences: {
    name: string;
    type: string;
    start: number;
    increment: number;
    owned_by: string | null;
  }[];
  functions: {
    name: string;
    kind: string;
    arguments: string;
    identity_arguments: string;
    result: string | null;
    language: string;
    volatility: string;
    security_definer: boolean;
    returns_set: boolean;
    nargs: number;
    nargdefaults: number;
    config: string[] | null;
  }[];
  views: string[];
  types: string[];
  migrations: { version: number; name: string }[];
}

const KIND: Record<string, string> = { f: 'function', p: 'procedure', a: 'aggregate', w: 'window' };
const VOLATILITY: Record<string, string> = { i: 'immutable', s: 'stable', v: 'volatile' };

/**
 * Reads a schema's catalog the way the shared fixture records it (the schema name replaced by
 * `{schema}`, NOT NULL constraints left to the columns' `nullable`).
 */
export async function readSchemaFacts(client: pg.ClientBase, schema: string): Promise<SchemaFacts> {
  const placeholder = (text: string): string => text.replaceAll(`${schema}.`, '{schema}.');
  const q = async <T extends pg.QueryResultRow>(sql: string): Promise<T[]> =>
    (await client.query<T>(sql, [schema])).rows;

  const tables = await q<{ oid: number; name: string; kind: string }>(
    `SELECT c.oid::int AS oid, c.relname AS name, c.relkind::text AS kind FROM pg_class c
      WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  const facts: SchemaFacts = {
    tables: [],
    sequences: [],
    functions: [],
    views: [],
    types: [],
    migrations: [],
  };
  for (const table of tables) {
    const columns = await client.query<ColumnFact>(
      `SELECT a.attnum::int AS ordinal, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
              NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default,
              NULLIF(a.attidentity::text, '') AS identity, NULLIF(a.attgenerated::text, '') AS generated
         FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [table.oid],
    );
    const constraints = await client.query<{ name: string; type: string; definition: string }>(
      `SELECT conname AS name, contype::text AS type, pg_get_constraintdef(oid) AS definition
         FROM pg_constraint WHERE conrelid = $1 AND contype <> 'n' ORDER BY conname`,
      [table.oid],
    );
    const indexes = await client.query<{
      name: string;
      definition: string;
      unique: boolean;
      primary: boolean;
    }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, i.indisunique AS unique,
              i.indisprimary AS primary
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1 ORDER BY c.relname`,
      [table.oid],
    );
    const triggers = await client.query<{ name: string; definition: string }>(
      `SELECT tgname AS name, pg_get_triggerdef(oid) AS definition FROM pg_trigger
        WHERE tgrelid = $1 AND NOT tgisinternal ORDER BY tgname`,
      [table.oid],
    );
    facts.tables.push({
      name: table.name,
      kind: table.kind,
      columns: columns.rows.map((c) => ({
        ...c,
        default: c.default === null ? null : placeholder(c.default),
      })),
      constraints: constraints.rows,
      indexes: indexes.rows.map((i) => ({ ...i, definition: placeholder(i.definition) })),
      triggers: triggers.rows.map((t) => ({ ...t, definition: placeholder(t.definition) })),
    });
  }
  facts.sequences = (
    await q<{
      name: string;
      type: string;
      start: string;
      increment: string;
      owned_by: string | null;
    }>(
      `SELECT s.relname AS name, format_type(q.seqtypid, NULL) AS type, q.seqstart AS start,
              q.seqincrement AS increment, t.relname || '.' || a.attname AS owned_by
         FROM pg_class s JOIN pg_sequence q ON q.seqrelid = s.oid
         LEFT JOIN pg_depend d ON d.objid = s.oid AND d.deptype = 'a' AND d.classid = 'pg_class'::regclass
         LEFT JOIN pg_class t ON t.oid = d.refobjid
         LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
        WHERE s.relnamespace = $1::regnamespace AND s.relkind = 'S' ORDER BY s.relname`,
    )
  ).map((s) => ({ ...s, start: Number(s.start), increment: Number(s.increment) }));
  facts.functions = (
    await q<SchemaFacts['functions'][number]>(
      `SELECT p.proname AS name, p.prokind::text AS kind, pg_get_function_arguments(p.oid) AS arguments,
              pg_get_function_identity_arguments(p.oid) AS identity_arguments,
              pg_get_function_result(p.oid) AS result, l.lanname AS language,
              p.provolatile::text AS volatility, p.prosecdef AS security_definer, p.proretset AS returns_set,
              p.pronargs::int AS nargs, p.pronargdefaults::int AS nargdefaults, p.proconfig AS config
         FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = $1::regnamespace
        ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)`,
    )
  ).map((f) => ({
    ...f,
    kind: KIND[f.kind] ?? f.kind,
    volatility: VOLATILITY[f.volatility] ?? f.volatility,
  }));
  facts.views = (
    await q<{ name: string }>(
      `SELECT relname AS name FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind IN ('v', 'm') ORDER BY 1`,
    )
  ).map((v) => v.name);
  facts.types = (
    await q<{ name: string }>(
      `SELECT typname AS name FROM pg_type WHERE typnamespace = $1::regnamespace AND typtype IN ('c', 'd', 'e', 'r')
          AND (typrelid = 0 OR (SELECT relkind FROM pg_class WHERE oid = typrelid) = 'c') ORDER BY 1`,
    )
  ).map((t) => t.name);
  facts.migrations = (
    await client.query<{ version: string; name: string }>(
      `SELECT version, name FROM "${schema}"._duroxide_migrations ORDER BY version`,
    )
  ).rows.map((m) => ({ version: Number(m.version), name: m.name }));
  return facts;
}
