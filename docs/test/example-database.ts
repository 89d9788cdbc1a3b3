import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function onServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Runs `body` with the URL of a new, empty database on the server at `serverUrl`, dropped
 * afterwards (kept when `body` fails, for inspection). Examples connect to the `public` schema of
 * `DATABASE_URL` as a reader's program does, so each needs a database of its own.
 */
export async function withDatabase(
  serverUrl: string,
  label: string,
  body: (url: string) => Promise<void>,
): Promise<void> {
  const slug = label
    .replace(/\.ts$/, '')
    .replace(/[^a-z0-9]+/gi, '_')
    .toLowerCase();
  const name = `duro_docs_${slug.slice(0, 40)}_${randomBytes(3).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await body(url.toString());
  await onServer(serverUrl, `DROP DATABASE ${name} WITH (FORCE)`);
}
