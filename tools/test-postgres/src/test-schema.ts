import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import pg from 'pg';

/** Prefix of every schema the harness creates, so leftovers can be found and swept. */
export const TEST_SCHEMA_PREFIX = 'duro_test_';

/**
 * A schema name made from a test file's name plus a random suffix, at most 63 bytes (PostgreSQL's
 * identifier limit), lower case letters, digits and underscores only.
 */
export function testSchemaName(testFile: string): string {
  const slug = basename(testFile)
    .replace(/\.(test|spec)\.[cm]?[jt]sx?$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const suffix = randomBytes(4).toString('hex');
  return `${TEST_SCHEMA_PREFIX}${slug.slice(0, 63 - TEST_SCHEMA_PREFIX.length - 9)}_${suffix}`;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates a schema; fails when it already exists, so two test files never share one. */
export async function createSchema(url: string, schema: string): Promise<void> {
  await withClient(url, (c) => c.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`));
}

/** Drops a schema and everything in it, when it exists. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  await withClient(url, (c) => c.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`));
}

/** Drops every schema whose name starts with {@link TEST_SCHEMA_PREFIX}; returns their names. */
export async function sweepTestSchemas(url: string): Promise<string[]> {
  return withClient(url, async (c) => {
    const found = await c.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname`,
      [TEST_SCHEMA_PREFIX],
    );
    for (const row of found.rows) {
      await c.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(row.nspname)} CASCADE`);
    }
    return found.rows.map((r) => r.nspname);
  });
}

/** A connection URL whose sessions resolve unqualified names in `schema` first. */
export function urlWithSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}
