import type { EmbeddedMigration, MigrationTrack } from './embedded-migration.js';
import { MigrationError } from './migration-error.js';
import { LEDGER_TABLE } from './migration-ledger.js';
import { migrationLockKey } from './migration-lock-key.js';
import { ledgerTableSql } from './migration-runner.js';
import { DURO_MIGRATIONS, DUROXIDE_MIGRATIONS } from './migrations.generated.js';
import { bindSchema, schemaNames, type SchemaNames } from './schema-sql.js';
import { resolveTargetVersion } from './target-version.js';

/** Options for {@link renderMigrationSql}. */
export interface RenderMigrationSqlOptions {
  /** Append the whole duro extension track (wake-up notifications). @default false */
  readonly extensions?: boolean;
}

function renderFile(
  names: SchemaNames,
  track: MigrationTrack,
  migration: EmbeddedMigration,
): string {
  return [
    `-- ${track} ${migration.name}`,
    'BEGIN;',
    `SET LOCAL search_path TO ${names.identifier}, pg_temp;`,
    bindSchema(migration.sql, names).trimEnd(),
    `INSERT INTO ${names.identifier}.${LEDGER_TABLE[track]} (version, name) VALUES (${migration.version}, '${migration.name}');`,
    'COMMIT;',
    '',
  ].join('\n');
}

/**
 * The SQL that migrates `schema` through the duroxide-track versions `fromVersion` to
 * `toVersion` (both included), for teams that apply migrations with their own tool. It is a
 * script for one session (`psql -v ON_ERROR_STOP=1 -f file.sql`): it holds the migration
 * advisory lock duroxide-pg and duro take, creates the schema and the ledger when missing, and
 * runs each file in its own transaction with the runner's search path and ledger insert. A file
 * already recorded stops the script at its ledger insert (primary key), with that file rolled
 * back. It does not perform the runner's consistency checks; run it against a schema whose
 * ledger ends right before `fromVersion`.
 *
 * @throws {InvalidSchemaNameError} for a schema name that is not a safe identifier.
 * @throws {MigrationError} `invalid-target` when a bound is not a known version, or
 * `fromVersion` is above `toVersion`.
 */
export function renderMigrationSql(
  schema: string,
  fromVersion: number,
  toVersion: number,
  options: RenderMigrationSqlOptions = {},
): string {
  const names = schemaNames(schema);
  resolveTargetVersion(names, DUROXIDE_MIGRATIONS, fromVersion);
  resolveTargetVersion(names, DUROXIDE_MIGRATIONS, toVersion);
  if (fromVersion > toVersion) {
    throw new MigrationError(
      'invalid-target',
      names.given,
      `fromVersion ${fromVersion} is above toVersion ${toVersion}`,
    );
  }
  const key = migrationLockKey(names.given);
  const parts = [
    `-- duro migrations for schema ${names.folded}: duroxide versions ${fromVersion} to ${toVersion}` +
      (options.extensions ? ', then the duro extension track' : ''),
    '-- Run in one session, for example: psql -v ON_ERROR_STOP=1 -f <this file>',
    `SELECT pg_advisory_lock(${key});`,
    ...(names.folded === 'public' ? [] : [`CREATE SCHEMA IF NOT EXISTS ${names.identifier};`]),
    `${ledgerTableSql(names, 'duroxide')};`,
    '',
  ];
  for (const m of DUROXIDE_MIGRATIONS) {
    if (m.version >= fromVersion && m.version <= toVersion)
      parts.push(renderFile(names, 'duroxide', m));
  }
  if (options.extensions) {
    parts.push(`${ledgerTableSql(names, 'duro')};`, '');
    for (const m of DURO_MIGRATIONS) parts.push(renderFile(names, 'duro', m));
  }
  parts.push(`SELECT pg_advisory_unlock(${key});`, '');
  return parts.join('\n');
}
