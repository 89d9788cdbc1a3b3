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
import type { SchemaNames } from '../migrations/schema-sql.js';
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

/**
 * Where the database takes its connections: the pool, or a view of it that reports a failed
 * login its own way (see `connect.ts`).
 * @internal
 */
export interface ConnectionSource {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
}

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
 * one statement in its own transaction; conflicts are retried here (see `conflict-retry.ts`),
 * and every failure leaves as a {@link ProviderError}.
 * @internal
 */
export class ProviderDatabase {
  readonly #pool: ConnectionSource;
  readonly #statements = new Map<Statement, SchemaStatement>();
  readonly #retryPolicy: ConflictRetryPolicy;
  /** Statements sent and not yet answered, which {@link close} waits for. */
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(
    pool: ConnectionSource,
    /** The validated schema. */
    readonly schema: SchemaNames,
    /** The caller's clock, epoch ms: the `p_now_ms` of every procedure. */
    readonly nowMs: () => number,
    /** The clause claim statements carry (see `claim-commit.ts`). */
    private readonly claimCommit: string,
    retryPolicy: ConflictRetryPolicy = CONFLICT_RETRY_POLICY,
  ) {
    this.#pool = pool;
    this.#retryPolicy = retryPolicy;
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
      found = forSchema(statement, this.schema, this.claimCommit);
      this.#statements.set(statement, found);
    }
    return found;
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
