import { readFileSync } from 'node:fs';
import { ProviderError } from '@duro/core';
import type { SqliteDatabase } from '../database/sqlite-database.js';
import {
  DUROXIDE_SQLITE_MIGRATIONS,
  type DuroxideSqliteMigration,
  migrationFileName,
} from './duroxide-sqlite-migrations.js';

const OPERATION = 'migrate';

// The ledger sqlx keeps (`_sqlx_migrations`, created as sqlx 0.8 creates it), which duroxide's
// SQLite provider reads on every start: it refuses a version it does not know and runs the
// versions it does not find. Each version here commits with its ledger row in one transaction.
const CREATE_LEDGER = `
CREATE TABLE IF NOT EXISTS _sqlx_migrations (
    version        BIGINT PRIMARY KEY,
    description    TEXT NOT NULL,
    installed_on   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success        BOOLEAN NOT NULL,
    checksum       BLOB NOT NULL,
    execution_time BIGINT NOT NULL
)`;

interface LedgerRow {
  readonly version: number;
  readonly success: number;
}

function readMigrationSql(migration: DuroxideSqliteMigration): string {
  const file = new URL(`../../migrations/${migrationFileName(migration)}`, import.meta.url);
  return readFileSync(file, 'utf8');
}

/**
 * Checks what the ledger says before anything is run.
 * @throws {ProviderError} (permanent) for a version that failed halfway (sqlx's "dirty"), a
 *   version this package does not know (a newer duroxide migrated the file), or duroxide tables
 *   without a ledger (made some other way).
 */
function checkLedger(db: SqliteDatabase, where: string, rows: readonly LedgerRow[]): void {
  const known = new Set(DUROXIDE_SQLITE_MIGRATIONS.map((migration) => migration.version));
  const latest = DUROXIDE_SQLITE_MIGRATIONS.at(-1)?.version;
  for (const row of rows) {
    if (row.success === 0) {
      throw ProviderError.permanent(
        OPERATION,
        `${where}: schema version ${row.version} failed halfway (success = false in ` +
          '_sqlx_migrations); repair or remove that row before opening it',
      );
    }
    if (!known.has(row.version)) {
      throw ProviderError.permanent(
        OPERATION,
        `${where} has schema version ${row.version}, which this @duro/provider-sqlite does not ` +
          `know (it knows up to ${latest}): a newer duroxide migrated it`,
      );
    }
  }
  const hasTables = db
    .statement("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'instances'")
    .get();
  if (rows.length === 0 && hasTables !== undefined) {
    throw ProviderError.permanent(
      OPERATION,
      `${where} has duroxide tables but no _sqlx_migrations ledger, so its schema version is ` +
        'unknown',
    );
  }
}

/**
 * Brings a database to the latest schema version this package knows, recording each version in
 * `_sqlx_migrations` as sqlx does, with duroxide's checksums. Safe to run from several processes
 * at once: each version is applied under the write lock, after checking again that nobody
 * applied it meanwhile.
 * @throws {ProviderError} (permanent) as {@link checkLedger}, or when a version's SQL fails.
 * @internal
 */
export async function migrateSchema(db: SqliteDatabase): Promise<void> {
  const where = `SQLite database ${db.file ?? ':memory:'}`;
  await db.write(OPERATION, () => db.exec(CREATE_LEDGER));
  const ledger = () =>
    db
      .statement('SELECT version, success FROM _sqlx_migrations ORDER BY version')
      .all() as LedgerRow[];
  await db.read(OPERATION, () => checkLedger(db, where, ledger()));
  for (const migration of DUROXIDE_SQLITE_MIGRATIONS) {
    const sql = readMigrationSql(migration);
    await db.write(OPERATION, () => {
      const rows = ledger();
      checkLedger(db, where, rows);
      if (rows.some((row) => row.version === migration.version)) return;
      const started = process.hrtime.bigint();
      try {
        db.exec(sql);
      } catch (error) {
        throw ProviderError.permanent(
          OPERATION,
          `${where}: schema version ${migration.version} failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
      db.statement(
        'INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) ' +
          'VALUES (?, ?, 1, ?, ?)',
      ).run(
        migration.version,
        migration.description,
        Buffer.from(migration.rustChecksum, 'hex'),
        process.hrtime.bigint() - started,
      );
    });
  }
}
