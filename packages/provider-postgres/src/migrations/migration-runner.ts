import type pg from 'pg';
import type { EmbeddedMigration, MigrationTrack } from './embedded-migration.js';
import { MigrationError } from './migration-error.js';
import {
  LEDGER_TABLE,
  assertCoreTables,
  assertKnownVersions,
  assertOrderedPrefix,
  readCoreRelations,
  readLedger,
} from './migration-ledger.js';
import { migrationLockKey } from './migration-lock-key.js';
import { DURO_MIGRATIONS, DUROXIDE_MIGRATIONS } from './migrations.generated.js';
import { bindSchema, schemaNames, type SchemaNames } from './schema-sql.js';
import { resolveTargetVersion } from './target-version.js';

/** Options for {@link runMigrations}. */
export interface RunMigrationsOptions {
  /** The schema to migrate; created when missing. @default 'public' */
  readonly schema?: string;
  /**
   * The last duroxide-track version to apply, for a fleet that still runs an older duroxide-pg
   * (the duroxide-node 0.1.29 binary knows 1–21 and 23: pass 23). Must be a version the package
   * knows. A schema already past it is left alone. @default the latest known version
   */
  readonly targetVersion?: number;
  /** Apply the duro extension track (wake-up notifications) after the duroxide track. @default true */
  readonly extensions?: boolean;
  /** Called before and after each migration file. */
  readonly onProgress?: (event: MigrationProgress) => void;
}

/** A step of a migration run, reported through {@link RunMigrationsOptions.onProgress}. */
export interface MigrationProgress {
  /** `'applying'` before the file runs, `'applied'` after it committed. */
  readonly phase: 'applying' | 'applied';
  /** `'duroxide'` or `'duro'` (the extension track). */
  readonly track: MigrationTrack;
  /** The file's version within its track. */
  readonly version: number;
  /** The file name, such as `0023_partial_secondary_indexes.sql`. */
  readonly name: string;
  /** Time the file took, in milliseconds; set when `phase` is `applied`. */
  readonly elapsedMs?: number;
}

/** What a migration run did. */
export interface MigrationReport {
  /** The schema as PostgreSQL names it (lower case). */
  readonly schema: string;
  /** The files applied by this run, in order; empty when the schema was up to date. */
  readonly applied: readonly {
    /** `'duroxide'` or `'duro'` (the extension track). */
    readonly track: MigrationTrack;
    /** The file's version within its track. */
    readonly version: number;
    /** The file name. */
    readonly name: string;
  }[];
  /** The highest duroxide-track version recorded after the run. */
  readonly duroxideVersion: number;
  /** The highest duro-track version recorded after the run; 0 when the track was not applied. */
  readonly duroVersion: number;
}

/** A pool (a connection is taken for the run) or a connected client. */
export type MigrationConnection = pg.Pool | pg.ClientBase;

/**
 * Brings a schema up to date, applying each pending migration file in its own transaction, under
 * the same session advisory lock as duroxide-pg's runner, so Rust and duro processes that start
 * together apply each file once. It follows duroxide-pg 0.1.37's rules: it refuses a schema that
 * records a version it does not know, a ledger that is not an ordered prefix of the known
 * versions, and duroxide tables that do not match the ledger, and then changes nothing.
 *
 * The schema name is checked before any SQL is sent.
 *
 * @throws {InvalidSchemaNameError} for a schema name that is not a safe identifier.
 * @throws {MigrationError} when a rule above fails, the target version is unknown, or a file
 * fails (that file is rolled back; the files before it stay applied).
 */
export async function runMigrations(
  connection: MigrationConnection,
  options: RunMigrationsOptions = {},
): Promise<MigrationReport> {
  const names = schemaNames(options.schema ?? 'public');
  const target = resolveTargetVersion(names, DUROXIDE_MIGRATIONS, options.targetVersion);
  const client = isPool(connection) ? await connection.connect() : connection;
  const key = migrationLockKey(names.given);
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [key]);
    try {
      return await migrateLocked(client, names, target, options);
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
    }
  } finally {
    if (client !== connection) (client as pg.PoolClient).release(broken);
  }
}

/**
 * A pool by its shape rather than `instanceof`, so a pool from another copy of `pg` in
 * node_modules is not mistaken for a client (the run must stay on one connection: the advisory
 * lock is a session lock).
 */
function isPool(connection: MigrationConnection): connection is pg.Pool {
  return 'idleCount' in connection && 'totalCount' in connection;
}

async function migrateLocked(
  client: pg.ClientBase,
  names: SchemaNames,
  target: number,
  options: RunMigrationsOptions,
): Promise<MigrationReport> {
  const applied: MigrationReport['applied'][number][] = [];
  const report = (event: MigrationProgress): void => options.onProgress?.(event);

  // The unknown-version check comes first, before anything is created, so an older binary never
  // touches a schema that is ahead of it.
  let duroxideLedger = await readLedger(client, names, 'duroxide');
  if (duroxideLedger) assertKnownVersions(names, 'duroxide', duroxideLedger, DUROXIDE_MIGRATIONS);

  if (names.folded !== 'public') {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${names.identifier}`);
  }
  const relations = await readCoreRelations(client, names);
  if (!duroxideLedger) {
    if (relations.size > 0) {
      throw new MigrationError(
        'corrupt-schema',
        names.given,
        `schema ${names.folded} has duroxide tables (${[...relations.keys()].sort().join(', ')}) ` +
          'but no _duroxide_migrations ledger; refusing to start a new ledger over them',
      );
    }
    await createLedger(client, names, 'duroxide');
    // Without duroxide tables no duro trigger can exist (they live on those tables), so a duro
    // ledger left behind by cleanup_schema of an older body describes nothing.
    await client.query(`DROP TABLE IF EXISTS ${names.identifier}.${LEDGER_TABLE.duro}`);
    duroxideLedger = [];
  }
  assertOrderedPrefix(names, 'duroxide', duroxideLedger, DUROXIDE_MIGRATIONS);
  assertCoreTables(names, duroxideLedger, relations);

  const pendingDuroxide = DUROXIDE_MIGRATIONS.slice(duroxideLedger.length).filter(
    (m) => m.version <= target,
  );
  for (const migration of pendingDuroxide) {
    await applyMigration(client, names, 'duroxide', migration, report);
    applied.push({ track: 'duroxide', version: migration.version, name: migration.name });
  }
  const duroxideVersion = pendingDuroxide.at(-1)?.version ?? duroxideLedger.at(-1) ?? 0;

  let duroVersion = 0;
  if (options.extensions ?? true) {
    let duroLedger = await readLedger(client, names, 'duro');
    if (duroLedger) assertKnownVersions(names, 'duro', duroLedger, DURO_MIGRATIONS);
    if (!duroLedger) {
      await createLedger(client, names, 'duro');
      duroLedger = [];
    }
    assertOrderedPrefix(names, 'duro', duroLedger, DURO_MIGRATIONS);
    const pendingDuro = DURO_MIGRATIONS.slice(duroLedger.length);
    for (const migration of pendingDuro) {
      await applyMigration(client, names, 'duro', migration, report);
      applied.push({ track: 'duro', version: migration.version, name: migration.name });
    }
    duroVersion = pendingDuro.at(-1)?.version ?? duroLedger.at(-1) ?? 0;
  }

  return { schema: names.folded, applied, duroxideVersion, duroVersion };
}

/** The ledger's DDL, shared with {@link renderMigrationSql} through `ledgerTableSql`. */
export function ledgerTableSql(names: SchemaNames, track: MigrationTrack): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${names.identifier}.${LEDGER_TABLE[track]} (\n` +
    '    version BIGINT PRIMARY KEY,\n' +
    '    name TEXT NOT NULL,\n' +
    '    applied_at TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP\n' +
    ')'
  );
}

async function createLedger(
  client: pg.ClientBase,
  names: SchemaNames,
  track: MigrationTrack,
): Promise<void> {
  await client.query(ledgerTableSql(names, track));
}

/**
 * One file, one transaction, with the search path duroxide-pg's runner sets (`pg_temp` last, so
 * a temporary object cannot shadow a name the file resolves through it). The whole file goes as
 * one simple-protocol query, so no statement splitting or comment stripping is needed.
 */
async function applyMigration(
  client: pg.ClientBase,
  names: SchemaNames,
  track: MigrationTrack,
  migration: EmbeddedMigration,
  report: (event: MigrationProgress) => void,
): Promise<void> {
  report({ phase: 'applying', track, version: migration.version, name: migration.name });
  const started = performance.now();
  const sql = bindSchema(migration.sql, names);
  await client.query('BEGIN');
  await client.query(`SET LOCAL search_path TO ${names.identifier}, pg_temp`);
  try {
    await client.query(sql);
  } catch (error) {
    throw new MigrationError(
      'statement-failed',
      names.given,
      `${track} migration ${migration.name} failed on schema ${names.folded}` +
        `${lineOf(sql, error)}: ${describePgError(error)}`,
      { cause: error },
    );
  }
  await client.query(
    `INSERT INTO ${names.identifier}.${LEDGER_TABLE[track]} (version, name) VALUES ($1, $2)`,
    [migration.version, migration.name],
  );
  await client.query('COMMIT');
  report({
    phase: 'applied',
    track,
    version: migration.version,
    name: migration.name,
    elapsedMs: Math.round(performance.now() - started),
  });
}

/** A PostgreSQL error's message plus its detail line, when it has one. */
function describePgError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const detail = (error as { detail?: unknown }).detail;
  return typeof detail === 'string' && detail ? `${error.message} (${detail})` : error.message;
}

/** " at line N" from a PostgreSQL error's 1-based character position in the query, if any. */
function lineOf(sql: string, error: unknown): string {
  const position = Number((error as { position?: unknown }).position);
  if (!Number.isInteger(position) || position < 1) return '';
  return ` at line ${sql.slice(0, position - 1).split('\n').length}`;
}
