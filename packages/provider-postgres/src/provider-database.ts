import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from '@duro/core';
import type pg from 'pg';
import {
  CONFLICT_RETRY_POLICY,
  conflictRetryDelayMs,
  type ConflictRetryPolicy,
} from './conflict-retry.js';
import {
  classifyFailure,
  isConnectionFailure,
  sqlState,
  toProviderError,
  type FailureSubject,
  type KnownFailure,
} from './errors.js';
import type { SchemaNames } from './migrations/schema-sql.js';
import { forSchema, type SchemaStatement, type Statement } from './statement.js';

/** Parameters of a statement, or a function of the caller's clock giving them. */
export type StatementValues = readonly unknown[] | ((nowMs: number) => readonly unknown[]);

/** How one call reports failures. */
export interface CallOptions {
  /** What the call works on, named in error messages. */
  readonly subject?: FailureSubject;
  /** Procedure messages that map to duroxide's permanent errors. */
  readonly known?: readonly KnownFailure[];
}

/** A connection as the database uses it: a pooled `pg` client, or one a transaction holds. */
interface Connection {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  release(discard?: boolean): void;
}

/** Where the database takes its connections: the pool, or the one a transaction holds. */
interface Connections {
  connect(): Promise<Connection>;
  end(): Promise<void>;
}

/** How a transaction's work ends it early; each does nothing once the transaction has ended. */
export interface TransactionEnd {
  /** @throws {ProviderError} when the commit failed; retryable when its outcome is unknown. */
  readonly commit: () => Promise<void>;
  /**
   * Never fails: a connection that cannot carry the rollback is closed instead, and the server
   * rolls the transaction back as the session ends.
   */
  readonly rollback: () => Promise<void>;
}

/** Statements in a transaction are not retried: a conflict aborts the whole transaction. */
const NO_RETRIES: ConflictRetryPolicy = { maxRetries: 0, baseDelayMs: 0 };

/**
 * A connection that failed in a way that may leave it unusable or holding a stale prepared
 * statement is destroyed instead of going back to the pool.
 */
function mustDiscardConnection(error: unknown): boolean {
  const state = sqlState(error);
  return state === undefined || state === '0A000' || isConnectionFailure(error);
}

/**
 * The provider's way to the database: one pool, one schema and the caller's clock. Every call is
 * one statement in its own transaction, unless it runs in a {@link transaction}; conflicts are
 * retried here (see `conflict-retry.ts`), and every failure leaves as a {@link ProviderError}.
 * @internal
 */
export class ProviderDatabase {
  readonly #pool: Connections;
  readonly #statements: Map<Statement, SchemaStatement>;
  readonly #retryPolicy: ConflictRetryPolicy;
  /** Statements sent and not yet answered, which {@link close} waits for. */
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(
    pool: Connections,
    /** The validated schema. */
    readonly schema: SchemaNames,
    /** The caller's clock, epoch ms: the `p_now_ms` of every procedure. */
    readonly nowMs: () => number,
    retryPolicy: ConflictRetryPolicy = CONFLICT_RETRY_POLICY,
    statements = new Map<Statement, SchemaStatement>(),
  ) {
    this.#pool = pool;
    this.#retryPolicy = retryPolicy;
    this.#statements = statements;
  }

  /** Whether {@link close} has been called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Runs `statement` and returns its rows. `values` is evaluated for each attempt once it holds a
   * connection, so the clock reading it passes is taken when the statement is sent, not before a
   * wait for the pool.
   * @throws {ProviderError} permanent when the provider is closed or the statement failed for
   * good; retryable when the connection was lost or conflicts outlasted the retries.
   */
  async query<Row>(
    statement: Statement,
    values: StatementValues,
    options: CallOptions = {},
  ): Promise<Row[]> {
    const prepared = this.#forSchema(statement);
    for (let retry = 0; ; retry++) {
      if (this.#closed) {
        throw ProviderError.permanent(statement.operation, 'the provider is closed');
      }
      const running = this.#run<Row>(prepared, values);
      this.#running.add(running);
      try {
        return await running;
      } catch (error) {
        const again = classifyFailure(error) === 'conflict' && retry < this.#retryPolicy.maxRetries;
        if (!again)
          throw toProviderError(statement.operation, error, options.subject, options.known);
        await sleep(conflictRetryDelayMs(this.#retryPolicy, retry));
      } finally {
        this.#running.delete(running);
      }
    }
  }

  /**
   * Runs `work` in one transaction on one connection of the pool. Its statements go through the
   * database it is given, which retries nothing: a conflict fails the transaction like any other
   * failure. `work` may end the transaction itself (see {@link TransactionEnd}); one it did not
   * end commits when it returns, and one it failed in is rolled back. The server ends the
   * session of a transaction left idle for `idleTimeoutMs` (a process that hangs), which rolls
   * it back and frees its locks.
   * @throws {ProviderError} whatever `work` failed with, after the rollback; retryable when the
   * commit was lost with the connection (its outcome is then unknown).
   */
  async transaction<T>(
    idleTimeoutMs: number,
    work: (tx: ProviderDatabase, end: TransactionEnd) => Promise<T>,
  ): Promise<T> {
    if (this.#closed) throw ProviderError.permanent('transaction', 'the provider is closed');
    if (!Number.isSafeInteger(idleTimeoutMs) || idleTimeoutMs < 1) {
      throw ProviderError.permanent(
        'transaction',
        `idleTimeoutMs must be a positive integer, got ${idleTimeoutMs}`,
      );
    }
    const running = this.#transaction(idleTimeoutMs, work);
    this.#running.add(running);
    try {
      return await running;
    } finally {
      this.#running.delete(running);
    }
  }

  /**
   * Closes the pool once every running call has finished. (Ending a `pg` pool while a call still
   * waits for its connection would leave that call unanswered for good.)
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled(this.#running);
    await this.#pool.end();
  }

  #forSchema(statement: Statement): SchemaStatement {
    let found = this.#statements.get(statement);
    if (found === undefined) {
      found = forSchema(statement, this.schema);
      this.#statements.set(statement, found);
    }
    return found;
  }

  async #transaction<T>(
    idleTimeoutMs: number,
    work: (tx: ProviderDatabase, end: TransactionEnd) => Promise<T>,
  ): Promise<T> {
    const client = await this.#pool.connect().catch((error: unknown) => {
      throw toProviderError('transaction', error);
    });
    const held: Connections = {
      connect: () =>
        Promise.resolve({ query: (config) => client.query(config), release: () => {} }),
      end: () => Promise.resolve(),
    };
    const tx = new ProviderDatabase(held, this.schema, this.nowMs, NO_RETRIES, this.#statements);
    let ended = false;
    let discard = false;
    const end: TransactionEnd = {
      commit: async () => {
        if (ended) return;
        ended = true;
        await client.query({ text: 'COMMIT' }).catch((error: unknown) => {
          discard = true;
          throw toProviderError('commit', error);
        });
      },
      rollback: async () => {
        if (ended) return;
        ended = true;
        await client.query({ text: 'ROLLBACK' }).catch(() => {
          discard = true;
        });
      },
    };
    try {
      // One round trip: a simple query may hold several statements.
      await client.query({
        text: `BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${idleTimeoutMs}`,
      });
      const result = await work(tx, end);
      await end.commit();
      return result;
    } catch (error) {
      await end.rollback();
      throw ProviderError.isInstance(error) ? error : toProviderError('transaction', error);
    } finally {
      client.release(discard);
    }
  }

  async #run<Row>(statement: SchemaStatement, values: StatementValues): Promise<Row[]> {
    const client = await this.#pool.connect();
    // Only the statement's own failure can say the connection is unusable; arguments that could
    // not be built (an invalid timestamp, say) leave it healthy.
    let discard = false;
    try {
      const args = typeof values === 'function' ? values(this.nowMs()) : values;
      const config: pg.QueryConfig = { text: statement.text, values: [...args] };
      if (statement.name !== undefined) config.name = statement.name;
      const result = await client.query(config).catch((error: unknown) => {
        discard = mustDiscardConnection(error);
        throw error;
      });
      return result.rows as Row[];
    } finally {
      client.release(discard);
    }
  }
}
