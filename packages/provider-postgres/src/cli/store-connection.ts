import { Client, ManagementClient, type ProviderAdmin } from '@duro/core';
import pg from 'pg';
import { sessionConfig } from '../connection/connection-target.js';
import { toProviderError } from '../database/errors.js';
import { InspectionError } from '../inspection/inspection-error.js';
import { SchemaInspector } from '../inspection/schema-inspector.js';
import { schemaNames } from '../migrations/schema-sql.js';
import { PostgresProvider } from '../postgres-provider.js';
import { resolveProviderOptions } from '../postgres-provider-options.js';
import type { CliConnection } from './cli-connection.js';
import { CliError } from './cli-error.js';

/** An open connection to one schema: the inspection reads, SQL, and the clients. */
export interface CliStore {
  readonly pool: pg.Pool;
  /** The schema as a quoted identifier, for SQL. */
  readonly schemaSql: string;
  /** The schema as PostgreSQL stores its name (folded to lower case). */
  readonly schemaName: string;
  /** The reads `duro` shares with `duro ui` (lists, trees, diagnoses). */
  readonly inspector: SchemaInspector;
  readonly client: Client;
  readonly management: ManagementClient;
  /** The provider's management reads that the clients do not expose (children of an instance). */
  readonly admin: ProviderAdmin;
  close(): Promise<void>;
}

/** How long `duro` waits for PostgreSQL to accept a connection, in milliseconds. */
const CONNECT_TIMEOUT_MS = 10_000;

const SESSION_SETTINGS = {
  applicationName: 'duro-cli',
  connectionTimeoutMs: CONNECT_TIMEOUT_MS,
  lockWaitTimeoutMs: 0,
  statementTimeoutMs: 0,
  ssl: undefined,
} as const;

/**
 * A pool on `connection`, once a first query went through.
 * @throws {CliError} (connection) saying why the server cannot be used.
 */
export async function openPool(connection: CliConnection): Promise<pg.Pool> {
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({
      ...(await sessionConfig(connection.target, SESSION_SETTINGS, connection.env)),
      max: 3,
    });
  } catch (error) {
    throw CliError.connection(error instanceof Error ? error.message : String(error));
  }
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw connectionError(error, connection.server);
  }
}

/**
 * Opens `schema` for the commands that read or change instances.
 * @throws {CliError} (connection) when the server cannot be used or the schema is not migrated.
 */
export async function openStore(connection: CliConnection, schema: string): Promise<CliStore> {
  schemaNames(schema);
  const pool = await openPool(connection);
  const inspector = new SchemaInspector(pool, schema);
  try {
    await inspector.checkMigrated().catch((error: unknown) => {
      throw InspectionError.isInstance(error) ? CliError.connection(error.message) : error;
    });
    const provider = await PostgresProvider.connectToTarget(
      connection.target,
      schema,
      resolveProviderOptions({ migrate: false, poolSize: 2, applicationName: 'duro-cli' }),
      connection.env,
    );
    return {
      pool,
      schemaSql: inspector.schema.schemaSql,
      schemaName: inspector.schema.schemaName,
      inspector,
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

function connectionError(error: unknown, where: string): CliError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED')
    return CliError.connection(`cannot reach PostgreSQL at ${where}: connection refused`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return CliError.connection(`cannot reach PostgreSQL at ${where}: unknown host`);
  }
  if (typeof code === 'string' && LOGIN_FAILED.has(code) && !message.includes('no encryption')) {
    return CliError.connection(`PostgreSQL at ${where} refused the login: ${message}`);
  }
  if (code === '3D000') return CliError.connection(`PostgreSQL at ${where}: ${message}`);
  if (/timeout/i.test(message)) {
    return CliError.connection(
      `cannot reach PostgreSQL at ${where}: no answer within ${CONNECT_TIMEOUT_MS / 1_000} s`,
    );
  }
  // The provider's wording names TLS failures (a refused certificate, a server that takes TLS
  // only) and what to change.
  return CliError.connection(
    `cannot use PostgreSQL at ${where}: ${toProviderError('connect', error).detail}`,
  );
}
