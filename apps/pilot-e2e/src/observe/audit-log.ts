import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type {
  AuditQueue,
  AuditTrail,
  ClaimPath,
  ClaimRecord,
  FetchWait,
  LockEvent,
  LockEventKind,
} from './audit-records.js';

/** How long a write keeps retrying (a server restart takes a few seconds), ms. */
const WRITE_DEADLINE_MS = 60_000;
const FIRST_RETRY_MS = 50;
const LONGEST_RETRY_MS = 1_000;

/** A quoted schema name for SQL (the names are the coordinator's own, checked at start). */
function quoted(schema: string): string {
  return `"${schema.replaceAll('"', '""')}"`;
}

/** The epoch ms of a `timestamptz` expression, in SQL. */
function epochMs(expression: string): string {
  return `(extract(epoch FROM ${expression}) * 1000)::bigint`;
}

/** What a worker knows about one item it just claimed. */
export interface ClaimedItem {
  readonly lockToken: string;
  readonly instance: string;
  readonly session: string | null;
  readonly messageKey: string;
  readonly attempt: number;
  /** The activity's identity, to tell a deleted row from one claimed again; `null` for a turn. */
  readonly activity: { readonly executionId: number; readonly activityId: number } | null;
}

/** What every item of one claiming call shares. */
export interface ClaimCall {
  readonly schema: string;
  readonly worker: string;
  readonly life: number;
  readonly queue: AuditQueue;
  readonly path: ClaimPath;
  /** The lease the call asked for, ms. */
  readonly lockTimeoutMs: number;
  readonly fetchStartedAtMs: number;
  readonly claimedAtMs: number;
}

/**
 * The tables every worker writes what it claimed and did to, in a schema of its own next to the
 * duro schemas. Claims go to PostgreSQL before the runtime sees them (not only over IPC), so a
 * worker killed a moment later has still recorded them; a claim's row is written by the same
 * statement that reads its lease and visibility from the duro schema.
 */
export class AuditLog {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
  ) {}

  /** Opens a small pool on `url` (its own application name, so chaos never cuts it). */
  static open(url: string, schema: string, applicationName: string): AuditLog {
    const pool = new pg.Pool({ connectionString: url, max: 2, application_name: applicationName });
    pool.on('error', () => undefined);
    return new AuditLog(pool, schema);
  }

  /** Drops and creates the audit schema. */
  async reset(): Promise<void> {
    const schema = quoted(this.schema);
    await this.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await this.pool.query(`CREATE SCHEMA ${schema}`);
    await this.pool.query(`CREATE TABLE ${schema}.claims (
      id BIGSERIAL PRIMARY KEY,
      schema_name TEXT NOT NULL,
      worker TEXT NOT NULL,
      life INTEGER NOT NULL,
      queue TEXT NOT NULL,
      path TEXT NOT NULL,
      instance TEXT NOT NULL,
      session_id TEXT,
      message_key TEXT NOT NULL,
      lock_token TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      fetch_started_ms BIGINT NOT NULL,
      claimed_at_ms BIGINT NOT NULL,
      lock_timeout_ms BIGINT NOT NULL,
      locked_until_ms BIGINT,
      runnable_at_ms BIGINT,
      still_queued BOOLEAN NOT NULL,
      observed_at_ms BIGINT NOT NULL
    )`);
    await this.pool.query(`CREATE TABLE ${schema}.lock_events (
      id BIGSERIAL PRIMARY KEY,
      worker TEXT NOT NULL,
      life INTEGER NOT NULL,
      queue TEXT NOT NULL,
      lock_token TEXT NOT NULL,
      kind TEXT NOT NULL,
      at_ms BIGINT NOT NULL,
      locked_until_ms BIGINT,
      detail TEXT NOT NULL
    )`);
    await this.pool.query(`CREATE TABLE ${schema}.waits (
      id BIGSERIAL PRIMARY KEY,
      schema_name TEXT NOT NULL,
      worker TEXT NOT NULL,
      life INTEGER NOT NULL,
      queue TEXT NOT NULL,
      from_ms BIGINT NOT NULL,
      to_ms BIGINT NOT NULL,
      max_items INTEGER NOT NULL,
      session_routing BOOLEAN NOT NULL,
      returned INTEGER NOT NULL
    )`);
  }

  /**
   * Records the items one call claimed, reading each one's lease end and visibility from the duro
   * schema in the same statement, and returns the records. Retries for up to a minute.
   * @throws the last database error when every try failed: the claims went unobserved.
   */
  async recordClaims(call: ClaimCall, items: readonly ClaimedItem[]): Promise<ClaimRecord[]> {
    if (items.length === 0) return [];
    const duro = quoted(call.schema);
    const lease =
      call.queue === 'orchestrator'
        ? `LEFT JOIN ${duro}.instance_locks l ON l.lock_token = c.lock_token
           LEFT JOIN LATERAL (
             SELECT min(GREATEST(q.visible_at, q.created_at)) AS runnable_at
             FROM ${duro}.orchestrator_queue q WHERE q.lock_token = c.lock_token) r ON true`
        : `LEFT JOIN ${duro}.worker_queue l ON l.lock_token = c.lock_token
           LEFT JOIN LATERAL (SELECT GREATEST(l.visible_at, l.created_at) AS runnable_at) r ON true`;
    // An activity's row gone altogether was deleted (a turn cancelled the activity); a row still
    // there under another token was taken by another claim. A turn's lock is never deleted
    // under its holder.
    const stillQueued =
      call.queue === 'orchestrator'
        ? 'TRUE'
        : `EXISTS (SELECT 1 FROM ${duro}.worker_queue o
                   WHERE o.instance_id = c.instance AND o.execution_id = c.execution_id
                     AND o.activity_id = c.activity_id)`;
    const rows = await this.retrying(() =>
      this.pool.query<{
        lock_token: string;
        locked_until_ms: string | null;
        runnable_at_ms: string | null;
        still_queued: boolean;
        observed_at_ms: string;
      }>(
        `INSERT INTO ${quoted(this.schema)}.claims
           (schema_name, worker, life, queue, path, instance, session_id, message_key, lock_token,
            attempt, fetch_started_ms, claimed_at_ms, lock_timeout_ms, locked_until_ms,
            runnable_at_ms, still_queued, observed_at_ms)
         SELECT $1, $2, $3, $4, $5, c.instance, c.session_id, c.message_key, c.lock_token,
                c.attempt, $6, $7, $8, l.locked_until, ${epochMs('r.runnable_at')},
                l.lock_token IS NOT NULL OR ${stillQueued}, ${epochMs('clock_timestamp()')}
         FROM unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::int[],
                     $14::bigint[], $15::bigint[])
           AS c(lock_token, instance, session_id, message_key, attempt, execution_id, activity_id)
         ${lease}
         RETURNING lock_token, locked_until_ms, runnable_at_ms, still_queued, observed_at_ms`,
        [
          call.schema,
          call.worker,
          call.life,
          call.queue,
          call.path,
          call.fetchStartedAtMs,
          call.claimedAtMs,
          call.lockTimeoutMs,
          items.map((item) => item.lockToken),
          items.map((item) => item.instance),
          items.map((item) => item.session),
          items.map((item) => item.messageKey),
          items.map((item) => item.attempt),
          items.map((item) => item.activity?.executionId ?? null),
          items.map((item) => item.activity?.activityId ?? null),
        ],
      ),
    );
    const stored = new Map(rows.rows.map((row) => [row.lock_token, row]));
    return items.map((item) => {
      const row = stored.get(item.lockToken);
      return {
        ...call,
        ...item,
        lockedUntilMs: nullableNumber(row?.locked_until_ms),
        runnableAtMs: nullableNumber(row?.runnable_at_ms),
        stillQueued: row?.still_queued ?? true,
        observedAtMs: Number(row?.observed_at_ms ?? Date.now()),
      };
    });
  }

  /**
   * Appends lock events and fetch waits in one round trip. Retries for up to a minute.
   * @throws the last database error when every try failed.
   */
  async append(events: readonly LockEvent[], waits: readonly FetchWait[]): Promise<void> {
    if (events.length === 0 && waits.length === 0) return;
    const schema = quoted(this.schema);
    await this.retrying(() =>
      this.pool.query(
        `WITH e AS (
           INSERT INTO ${schema}.lock_events
             (worker, life, queue, lock_token, kind, at_ms, locked_until_ms, detail)
           SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[],
                                $6::bigint[], $7::bigint[], $8::text[])
         )
         INSERT INTO ${schema}.waits
           (schema_name, worker, life, queue, from_ms, to_ms, max_items, session_routing, returned)
         SELECT * FROM unnest($9::text[], $10::text[], $11::int[], $12::text[], $13::bigint[],
                              $14::bigint[], $15::int[], $16::boolean[], $17::int[])`,
        [
          events.map((event) => event.worker),
          events.map((event) => event.life),
          events.map((event) => event.queue),
          events.map((event) => event.lockToken),
          events.map((event) => event.kind),
          events.map((event) => event.atMs),
          events.map((event) => event.lockedUntilMs),
          events.map((event) => event.detail),
          waits.map((wait) => wait.schema),
          waits.map((wait) => wait.worker),
          waits.map((wait) => wait.life),
          waits.map((wait) => wait.queue),
          waits.map((wait) => wait.fromMs),
          waits.map((wait) => wait.toMs),
          waits.map((wait) => wait.maxItems),
          waits.map((wait) => wait.sessionRouting),
          waits.map((wait) => wait.returned),
        ],
      ),
    );
  }

  /** Everything recorded, each table oldest first. */
  async readTrail(): Promise<AuditTrail> {
    const schema = quoted(this.schema);
    const claims = await this.pool.query<Record<string, string | null> & { still_queued: boolean }>(
      `SELECT * FROM ${schema}.claims ORDER BY id`,
    );
    const events = await this.pool.query<Record<string, string | null>>(
      `SELECT * FROM ${schema}.lock_events ORDER BY id`,
    );
    const waits = await this.pool.query<Record<string, string | boolean | null>>(
      `SELECT * FROM ${schema}.waits ORDER BY id`,
    );
    return {
      claims: claims.rows.map((row) => ({
        schema: String(row.schema_name),
        worker: String(row.worker),
        life: Number(row.life),
        queue: row.queue as AuditQueue,
        path: row.path as ClaimPath,
        instance: String(row.instance),
        session: row.session_id ?? null,
        messageKey: String(row.message_key),
        lockToken: String(row.lock_token),
        attempt: Number(row.attempt),
        fetchStartedAtMs: Number(row.fetch_started_ms),
        claimedAtMs: Number(row.claimed_at_ms),
        lockTimeoutMs: Number(row.lock_timeout_ms),
        lockedUntilMs: nullableNumber(row.locked_until_ms),
        runnableAtMs: nullableNumber(row.runnable_at_ms),
        stillQueued: row.still_queued === true,
        observedAtMs: Number(row.observed_at_ms),
      })),
      lockEvents: events.rows.map((row) => ({
        worker: String(row.worker),
        life: Number(row.life),
        queue: row.queue as AuditQueue,
        lockToken: String(row.lock_token),
        kind: row.kind as LockEventKind,
        atMs: Number(row.at_ms),
        lockedUntilMs: nullableNumber(row.locked_until_ms),
        detail: String(row.detail),
      })),
      waits: waits.rows.map((row) => ({
        schema: String(row.schema_name),
        worker: String(row.worker),
        life: Number(row.life),
        queue: row.queue as AuditQueue,
        fromMs: Number(row.from_ms),
        toMs: Number(row.to_ms),
        maxItems: Number(row.max_items),
        sessionRouting: row.session_routing === true,
        returned: Number(row.returned),
      })),
    };
  }

  /** Drops the audit schema. */
  async drop(): Promise<void> {
    await this.pool.query(`DROP SCHEMA IF EXISTS ${quoted(this.schema)} CASCADE`);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Runs `write` until it succeeds, backing off, for up to {@link WRITE_DEADLINE_MS}. */
  private async retrying<T>(write: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + WRITE_DEADLINE_MS;
    for (let delayMs = FIRST_RETRY_MS; ; delayMs = Math.min(delayMs * 2, LONGEST_RETRY_MS)) {
      try {
        return await write();
      } catch (error) {
        if (Date.now() + delayMs > deadline) throw error;
        await sleep(delayMs);
      }
    }
  }
}

function nullableNumber(value: string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}
