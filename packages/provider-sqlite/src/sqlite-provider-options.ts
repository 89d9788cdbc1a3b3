import type { SqliteDatabaseSettings } from './database/sqlite-database.js';

/** Options of `SqliteProvider.open` and `SqliteProvider.inMemory`. */
export interface SqliteProviderOptions {
  /**
   * SQLite's `synchronous` setting for a file (ignored in memory). With `'FULL'`, every commit
   * reaches the disk before the operation returns, so an acknowledged write survives a power
   * loss or an operating-system crash. `'NORMAL'` skips that flush (the write-ahead log is
   * flushed at checkpoints): commits cost less, an acknowledged write still survives the process
   * being killed, but the last ones can be lost when the machine itself goes down.
   * @default 'FULL'
   */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /**
   * How long one operation waits in total for a write lock another process holds, in
   * milliseconds, before it fails with a retryable `ProviderError`. It waits in short sleeps,
   * not blocking the event loop.
   * @default 10000
   */
  readonly busyTimeoutMs?: number;
  /**
   * How often a waiting fetch checks whether another process committed to the file (work this
   * provider's own writes cannot announce), in milliseconds. Work this provider writes itself,
   * and delayed work coming due, wake a waiting fetch at once.
   * @default 50
   */
  readonly pollIntervalMs?: number;
}

/** Options with every default applied. @internal */
export interface ResolvedSqliteProviderOptions extends SqliteDatabaseSettings {
  readonly pollIntervalMs: number;
}

function milliseconds(name: string, value: number | undefined, fallback: number, min: number) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new RangeError(
      `SqliteProviderOptions.${name} must be a finite number of milliseconds >= ${min}, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Applies defaults and checks every option.
 * @throws {RangeError} naming the option that is out of range.
 * @internal
 */
export function resolveSqliteProviderOptions(
  options: SqliteProviderOptions = {},
): ResolvedSqliteProviderOptions {
  const { synchronous = 'FULL' } = options;
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
    throw new RangeError(
      `SqliteProviderOptions.synchronous must be 'FULL' or 'NORMAL', got ${String(synchronous)}`,
    );
  }
  return {
    synchronous,
    busyTimeoutMs: milliseconds('busyTimeoutMs', options.busyTimeoutMs, 10_000, 0),
    pollIntervalMs: milliseconds('pollIntervalMs', options.pollIntervalMs, 50, 1),
  };
}
