import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Provider } from '@duro/core';
import type { ProviderFactory } from '@duro/core/validation';
import Database from 'better-sqlite3';
import { SqliteProvider } from '../sqlite-provider.js';
import type { SqliteProviderOptions } from '../sqlite-provider-options.js';

/** Where and how {@link sqliteValidationFactory} makes its providers. */
export interface SqliteValidationFactoryOptions {
  /** The folder that holds every database file the factory creates (it must exist). */
  readonly directory: string;
  /** Lock timeout the validations use, ms. @default 5000 (duroxide's) */
  readonly lockTimeoutMs?: number;
  /** Options for every provider made. @default {} */
  readonly providerOptions?: SqliteProviderOptions;
}

function asSqlite(provider: Provider): SqliteProvider & { readonly file: string } {
  if (!(provider instanceof SqliteProvider) || provider.file === null) {
    throw new TypeError(`expected a SqliteProvider on a file, got ${provider.name}`);
  }
  return provider as SqliteProvider & { readonly file: string };
}

/** Runs `change` on a connection of its own to the provider's file. */
function withFile<T>(provider: Provider, change: (db: Database.Database) => T): T {
  const db = new Database(asSqlite(provider).file, { timeout: 5_000 });
  try {
    return change(db);
  } finally {
    db.close();
  }
}

/**
 * A `ProviderFactory` (from `@duro/core/validation`) whose providers are `SqliteProvider`s, each
 * on a new file in `directory`, deleted when it is destroyed. Both the TypeScript validation
 * suite and duroxide's Rust suite (through `@duro/native`) run on it.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { describeProviderValidations } from '@duro/core/validation';
 * import { sqliteValidationFactory } from '@duro/provider-sqlite/validation';
 *
 * const directory = mkdtempSync(join(tmpdir(), 'duro-validation-'));
 * describeProviderValidations(sqliteValidationFactory({ directory }));
 * ```
 */
export function sqliteValidationFactory(options: SqliteValidationFactoryOptions): ProviderFactory {
  let created = 0;
  return {
    name: 'SqliteProvider',
    async createProvider() {
      created += 1;
      const file = join(options.directory, `validation-${process.pid}-${created}.db`);
      return SqliteProvider.open(file, options.providerOptions);
    },
    async destroyProvider(provider) {
      const { file } = asSqlite(provider);
      await asSqlite(provider).close();
      await Promise.all(
        ['', '-wal', '-shm'].map((suffix) => rm(`${file}${suffix}`, { force: true })),
      );
    },
    lockTimeoutMs: options.lockTimeoutMs ?? 5_000,
    shortPollThresholdMs: 100,
    capabilities: {
      longPolling: true,
      batchedWorkerQueue: true,
      batchedOrchestrationQueue: true,
      activityClaims: false,
    },
    async corruptInstanceHistory(provider, instance) {
      withFile(provider, (db) =>
        db
          .prepare('UPDATE history SET event_data = ? WHERE instance_id = ?')
          .run('{"type":"NotADuroxideEvent","corrupted":true}', instance),
      );
    },
    async getMaxAttemptCount(provider, instance) {
      return withFile(provider, (db) => {
        const row = db
          .prepare('SELECT MAX(attempt_count) AS max FROM orchestrator_queue WHERE instance_id = ?')
          .get(instance) as { max: number | null };
        return row.max ?? 0;
      });
    },
  };
}
