import { Client, ManagementClient, type ProviderAdmin } from '@duro/core';
import pg from 'pg';
import { PostgresProvider } from '../postgres-provider.js';
import { schemaNames } from '../migrations/schema-sql.js';
import { CliError } from './cli-error.js';

/** An open connection to one schema: SQL for the reads `duro` does itself, and the clients. */
export interface CliStore {
  readonly pool: pg.Pool;
  /** The schema as a quoted identifier, for SQL. */
  readonly schemaSql: string;
  /** The schema as PostgreSQL stores its name (folded to lower case). */
  readonly schemaName: string;
  readonly client: Client;
  readonly management: ManagementClient;
  /** The provider's management reads that the clients do not expose (children of an instance). */
  readonly admin: ProviderAdmin;
  close(): Promise<void>;
}

/** How long `duro` waits for PostgreSQL to accept a connection, in milliseconds. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Checks `url` before any connection is tried: a `postgres://` or `postgresql://` URL.
 * @throws {CliError} (connection) naming what is wrong with it.
 */
export function checkDatabaseUrl(url: string | undefined): string {
  if (url === undefined || url === '') {
    throw CliError.usage('no database: pass --database-url or set DATABASE_URL');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw CliError.connection(`not a valid database URL: '${redact(url)}'`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw CliError.connection(
      `database URL must start with postgres:// or postgresql://, got '${parsed.protocol}//'`,
    );
  }
  return url;
}

/** `url` with its password replaced by `***`, for messages. */
export function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}

/**
 * A pool on `url`, once a first query went through.
 * @throws {CliError} (connection) saying why the server cannot be used.
 */
export async function openPool(url: string): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 3,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'duro-cli',
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw connectionError(error, url);
  }
}

/**
 * Opens `schema` for the commands that read or change instances.
 * @throws {CliError} (connection) when the server cannot be used or the schema is not migrated.
 */
export async function openStore(url: string, schema: string): Promise<CliStore> {
  const names = schemaNames(schema);
  const pool = await openPool(url);
  try {
    const found = await pool.query<{ present: boolean }>(
      `SELECT to_regclass($1) IS NOT NULL AS present`,
      [`${names.identifier}.instances`],
    );
    if (found.rows[0]?.present !== true) {
      throw CliError.connection(
        `schema '${names.folded}' has no duro tables; run 'duro migrate --schema ${names.folded}' first`,
      );
    }
    const provider = await PostgresProvider.connectWithSchema(url, schema, {
      migrate: false,
      poolSize: 2,
      applicationName: 'duro-cli',
    });
    return {
      pool,
      schemaSql: names.identifier,
      schemaName: names.folded,
      client: new Client(provider),
      management: new ManagementClient(provider),
      admin: provider,
      async close() {
        await provider.close();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}

const LOGIN_FAILED = new Set(['28P01', '28000']);

function connectionError(error: unknown, url: string): CliError {
  const where = describeServer(url);
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED')
    return CliError.connection(`cannot reach PostgreSQL at ${where}: connection refused`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return CliError.connection(`cannot reach PostgreSQL at ${where}: unknown host`);
  }
  if (typeof code === 'string' && LOGIN_FAILED.has(code)) {
    return CliError.connection(`PostgreSQL at ${where} refused the login: ${message}`);
  }
  if (code === '3D000') return CliError.connection(`PostgreSQL at ${where}: ${message}`);
  if (/timeout/i.test(message)) {
    return CliError.connection(
      `cannot reach PostgreSQL at ${where}: no answer within ${CONNECT_TIMEOUT_MS / 1_000} s`,
    );
  }
  return CliError.connection(`cannot use PostgreSQL at ${where}: ${message}`);
}

function describeServer(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return redact(url);
  }
}
