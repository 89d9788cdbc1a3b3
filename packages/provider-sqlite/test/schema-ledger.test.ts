import { ProviderError } from '@duro/core';
import { SqliteProvider } from '@duro/provider-sqlite';
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirectory } from './support/temp-directory.js';

const directory = useTempDirectory('schema');
const migrationsFolder = new URL('../migrations/', import.meta.url);
const migrationFiles = readdirSync(migrationsFolder)
  .filter((name) => name.endsWith('.sql'))
  .sort();

/** Runs `body` on a connection of its own to `file`. */
function onFile<T>(file: string, body: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return body(db);
  } finally {
    db.close();
  }
}

function ledger(file: string): { version: number; description: string; success: number }[] {
  return onFile(file, (db) =>
    db.prepare('SELECT version, description, success FROM _sqlx_migrations ORDER BY version').all(),
  ) as { version: number; description: string; success: number }[];
}

/** A file at the first `count` schema versions, ledger included, as an older duroxide left it. */
function fileAtVersion(name: string, count: number): string {
  const file = join(directory, name);
  onFile(file, (db) => {
    db.exec(
      'CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, ' +
        'installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, ' +
        'checksum BLOB NOT NULL, execution_time BIGINT NOT NULL)',
    );
    for (const name of migrationFiles.slice(0, count)) {
      db.exec(readFileSync(new URL(name, migrationsFolder), 'utf8'));
      const [version, ...words] = name.replace(/\.sql$/, '').split('_');
      db.prepare(
        'INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) ' +
          "VALUES (?, ?, 1, x'00', 0)",
      ).run(Number(version), words.join(' '));
    }
  });
  return file;
}

async function openError(file: string): Promise<ProviderError> {
  const error: unknown = await SqliteProvider.open(file).then(
    async (provider) => {
      await provider.close();
      return undefined;
    },
    (reason: unknown) => reason,
  );
  if (!ProviderError.isInstance(error)) throw new Error(`open(${file}) did not fail as expected`);
  return error;
}

describe("the schema and sqlx's migration ledger", () => {
  it('a new file holds every duroxide SQLite schema version, recorded as sqlx records them', async () => {
    const file = join(directory, 'new.db');
    await (await SqliteProvider.open(file)).close();
    expect(ledger(file)).toEqual(
      migrationFiles.map((name) => {
        const [version, ...words] = name.replace(/\.sql$/, '').split('_');
        return { version: Number(version), description: words.join(' '), success: 1 };
      }),
    );
    expect(ledger(file).at(-1)).toEqual({
      version: 20240112000000,
      description: 'add kv delta',
      success: 1,
    });
  });

  it('many providers opening one new file at once migrate it once, without an error', async () => {
    const file = join(directory, 'raced.db');
    const providers = await Promise.all(Array.from({ length: 6 }, () => SqliteProvider.open(file)));
    await Promise.all(providers.map((provider) => provider.close()));
    expect(ledger(file)).toHaveLength(migrationFiles.length);
  });

  it('a file an older duroxide left is brought to the latest version with its data kept', async () => {
    const file = fileAtVersion('older.db', 10);
    onFile(file, (db) => {
      db.prepare(
        "INSERT INTO kv_store (instance_id, key, value, execution_id) VALUES ('i', 'k', 'v', 1)",
      ).run();
      // Rust leaves the creation time to the column's default: SQLite's text clock.
      db.prepare(
        'INSERT INTO instances (instance_id, orchestration_name, orchestration_version, ' +
          "created_at, updated_at) VALUES ('i', 'Kept', '1.0.0', '2026-12-02 13:41:44', " +
          "'2026-12-02 13:41:45')",
      ).run();
    });
    const provider = await SqliteProvider.open(file);
    try {
      expect(ledger(file)).toHaveLength(migrationFiles.length);
      expect(await provider.getKvValue('i', 'k')).toBe('v');
      const info = await provider.getInstanceInfo('i');
      expect(info.createdAt).toBe(Date.UTC(2026, 11, 2, 13, 41, 44));
      expect(info.updatedAt).toBe(Date.UTC(2026, 11, 2, 13, 41, 45));
    } finally {
      await provider.close();
    }
  });

  it('a file a newer duroxide migrated is refused, naming the version it does not know', async () => {
    const file = fileAtVersion('newer.db', migrationFiles.length);
    onFile(file, (db) =>
      db
        .prepare(
          'INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) ' +
            "VALUES (20990101000000, 'from the future', 1, x'00', 0)",
        )
        .run(),
    );
    const error = await openError(file);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('schema version 20990101000000');
    expect(error.message).toContain(file);
  });

  it('a file whose migration failed halfway is refused until it is repaired', async () => {
    const file = fileAtVersion('dirty.db', 3);
    onFile(file, (db) =>
      db.prepare('UPDATE _sqlx_migrations SET success = 0 WHERE version = ?').run(20240103000000),
    );
    expect((await openError(file)).message).toContain(
      'schema version 20240103000000 failed halfway',
    );
  });

  it('duroxide tables without a ledger are refused rather than guessed at', async () => {
    const file = join(directory, 'no-ledger.db');
    onFile(file, (db) =>
      db.exec(readFileSync(new URL(migrationFiles[0] ?? '', migrationsFolder), 'utf8')),
    );
    expect((await openError(file)).message).toContain('no _sqlx_migrations ledger');
  });
});
