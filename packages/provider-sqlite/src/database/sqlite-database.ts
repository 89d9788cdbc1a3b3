import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from '@duro/core';
import Database from 'better-sqlite3';
import { isBusyError, toProviderError } from './sqlite-errors.js';

/** How a file database commits. @internal */
export interface SqliteDatabaseSettings {
  /** SQLite's `synchronous` setting for the file. */
  readonly synchronous: 'FULL' | 'NORMAL';
  /** How long an operation waits for another process's write lock in total, ms. */
  readonly busyTimeoutMs: number;
}

/**
 * How long one statement may block the event loop waiting for a lock another process holds,
 * ms; past it the operation sleeps without blocking and tries again, until `busyTimeoutMs`.
 * Another process's write transaction holds the lock for one commit (an fsync, a few ms).
 */
const BLOCKING_BUSY_WAIT_MS = 20;
/** Longest sleep between two tries of an operation that found the database locked, ms. */
const MAX_BUSY_SLEEP_MS = 50;

/** A prepared statement of better-sqlite3. @internal */
export type Statement = Database.Statement<unknown[], unknown>;

/**
 * One connection to a SQLite database, as a provider uses it: prepared statements cached by
 * their text, transactions that run to their end without awaiting (so no other operation of
 * this process interleaves and no user code runs inside one), and operations that, when another
 * process holds the write lock, try again after a short sleep instead of blocking the event loop.
 * @internal
 */
export class SqliteDatabase {
  private readonly statements = new Map<string, Statement>();

  private constructor(
    private readonly db: Database.Database,
    /** The file, or `null` for an in-memory database. */
    readonly file: string | null,
    private readonly busyTimeoutMs: number,
  ) {}

  /**
   * Opens (creating it and its folder when missing) the file in WAL mode with the given
   * `synchronous`, or a private in-memory database when `file` is `null`.
   * @throws {ProviderError} (permanent) when the file cannot be opened or cannot use WAL.
   */
  static open(file: string | null, settings: SqliteDatabaseSettings): SqliteDatabase {
    const operation = 'open';
    let db: Database.Database;
    try {
      if (file !== null) mkdirSync(dirname(file), { recursive: true });
      db = new Database(file ?? ':memory:', { timeout: BLOCKING_BUSY_WAIT_MS });
    } catch (error) {
      throw ProviderError.permanent(
        operation,
        `cannot open SQLite database ${file ?? ':memory:'}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const database = new SqliteDatabase(db, file, settings.busyTimeoutMs);
    if (file !== null) {
      try {
        database.enableWal(settings.synchronous);
      } catch (error) {
        db.close();
        const { detail, retryable } = toProviderError(operation, error);
        throw new ProviderError(operation, `SQLite database ${file}: ${detail}`, retryable, {
          cause: error,
        });
      }
    }
    return database;
  }

  private enableWal(synchronous: 'FULL' | 'NORMAL'): void {
    const mode = this.db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') {
      throw ProviderError.permanent(
        'open',
        `cannot use write-ahead logging (journal mode stays ${String(mode)}); the file must be ` +
          'on a local file system',
      );
    }
    this.db.pragma(`synchronous = ${synchronous}`);
  }

  /** Whether `close` has not been called yet. */
  get isOpen(): boolean {
    return this.db.open;
  }

  /** The statement for `sql`, prepared once per connection. */
  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs a script of statements (schema changes), outside any cache. */
  exec(sql: string): void {
    this.db.exec(sql);
  }

  /**
   * Runs `body` in a write transaction (`BEGIN IMMEDIATE`, so the write lock is taken up front
   * and a read-then-write transaction cannot be refused halfway): commits when it returns,
   * rolls back when it throws. Throws SQLite's busy error when another process holds the lock
   * past the blocking wait.
   */
  writeNow<T>(body: () => T): T {
    return this.inTransaction('BEGIN IMMEDIATE', body);
  }

  /**
   * Runs `body` in a write transaction as {@link writeNow}, trying again after short sleeps
   * while another process holds the write lock, for up to `busyTimeoutMs`.
   * @throws {ProviderError} from `body`, or made from SQLite's error (retryable when the lock
   *   stayed taken).
   */
  write<T>(operation: string, body: () => T): Promise<T> {
    return this.retryWhileBusy(operation, () => this.writeNow(body));
  }

  /**
   * Runs `body` inside the current transaction as a unit of its own: when it throws, only its
   * writes are undone and the transaction goes on. For batches whose items commit or fail alone.
   */
  savepoint<T>(body: () => T): T {
    this.db.exec('SAVEPOINT batch_item');
    try {
      const result = body();
      this.db.exec('RELEASE batch_item');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK TO batch_item');
      this.db.exec('RELEASE batch_item');
      throw error;
    }
  }

  /** Runs `body` in a read transaction, so its statements see one snapshot. */
  read<T>(operation: string, body: () => T): Promise<T> {
    return this.retryWhileBusy(operation, () => this.inTransaction('BEGIN', body));
  }

  /**
   * A number that changes whenever another connection (another process, or another provider of
   * this one) commits to the database; the connection's own commits leave it unchanged.
   */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /** Closes the connection; a file's write-ahead log is checkpointed into it. Idempotent. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  private inTransaction<T>(begin: string, body: () => T): T {
    this.db.exec(begin);
    try {
      const result = body();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private async retryWhileBusy<T>(operation: string, attempt: () => T): Promise<T> {
    if (!this.db.open) throw ProviderError.permanent(operation, 'the provider is closed');
    const deadline = performance.now() + this.busyTimeoutMs;
    for (let tries = 1; ; tries++) {
      try {
        return attempt();
      } catch (error) {
        if (!isBusyError(error) || performance.now() >= deadline || !this.db.open) {
          throw toProviderError(operation, error);
        }
      }
      await sleep(Math.min(2 ** tries, MAX_BUSY_SLEEP_MS) * (0.5 + Math.random() / 2));
    }
  }
}
