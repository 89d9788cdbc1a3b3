import pg from 'pg';

/** What an audit row records. */
export type AuditKind =
  /** A fetch handed out a lease that had already run out (or was already taken over). */
  | 'expired-lease'
  /** An acknowledgement failed because the lock token was no longer valid. */
  | 'lock-token-ack-failure'
  /** A message was fetched again (attempt > 1). */
  | 'redelivery';

/** Which provider queue a row is about. */
export type AuditQueue = 'orchestrator' | 'worker';

/** One thing a worker observed that an invariant needs, written before the worker goes on. */
export interface AuditRecord {
  readonly kind: AuditKind;
  /** The duro schema the worker serves. */
  readonly schema: string;
  /** The worker's stable node id. */
  readonly worker: string;
  readonly queue: AuditQueue;
  readonly instance: string;
  /** Identifies the message (or the batch's messages) across workers and attempts. */
  readonly messageKey: string;
  /** Remaining lease (expired-lease; `null` when the lock was already gone), or the attempt. */
  readonly value: number | null;
  /** When the observation began and ended, epoch ms: a freeze of the worker in between excuses it. */
  readonly startedAtMs: number;
  readonly endedAtMs: number;
  readonly detail: string;
}

/** A quoted schema name for SQL (the names are the coordinator's own, checked at start). */
function quoted(schema: string): string {
  return `"${schema.replaceAll('"', '""')}"`;
}

/**
 * The table every worker writes its observations to, in a schema of its own next to the duro
 * schemas. Observations go to PostgreSQL (not only over IPC) so a worker killed a moment later
 * has still recorded them.
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
    await this.pool.query(`CREATE TABLE ${schema}.observations (
      id BIGSERIAL PRIMARY KEY,
      kind TEXT NOT NULL,
      schema_name TEXT NOT NULL,
      worker TEXT NOT NULL,
      queue TEXT NOT NULL,
      instance TEXT NOT NULL,
      message_key TEXT NOT NULL,
      value BIGINT,
      started_at_ms BIGINT NOT NULL,
      ended_at_ms BIGINT NOT NULL,
      detail TEXT NOT NULL
    )`);
  }

  /** Writes one observation, retrying briefly; gives up with a log line rather than stall work. */
  async record(entry: AuditRecord): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.pool.query(
          `INSERT INTO ${quoted(this.schema)}.observations
             (kind, schema_name, worker, queue, instance, message_key, value,
              started_at_ms, ended_at_ms, detail)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            entry.kind,
            entry.schema,
            entry.worker,
            entry.queue,
            entry.instance,
            entry.messageKey,
            entry.value,
            entry.startedAtMs,
            entry.endedAtMs,
            entry.detail,
          ],
        );
        return;
      } catch (error) {
        if (attempt >= 3) {
          console.error(`audit: could not record ${entry.kind}: ${String(error)}`);
          return;
        }
      }
    }
  }

  /**
   * The `locked_until` (epoch ms) of the lock `lockToken` holds in a duro schema's
   * `instance_locks` (orchestrator) or `worker_queue` (worker) table, or `null` when no row
   * carries that token any more.
   */
  async lockedUntil(
    duroSchema: string,
    queue: AuditQueue,
    lockToken: string,
  ): Promise<number | null> {
    const table = queue === 'orchestrator' ? 'instance_locks' : 'worker_queue';
    const result = await this.pool.query<{ locked_until: string | null }>(
      `SELECT locked_until FROM ${quoted(duroSchema)}.${table} WHERE lock_token = $1`,
      [lockToken],
    );
    const value = result.rows[0]?.locked_until;
    return value === undefined || value === null ? null : Number(value);
  }

  /** Every observation, oldest first. */
  async readAll(): Promise<AuditRecord[]> {
    const result = await this.pool.query<{
      kind: AuditKind;
      schema_name: string;
      worker: string;
      queue: AuditQueue;
      instance: string;
      message_key: string;
      value: string | null;
      started_at_ms: string;
      ended_at_ms: string;
      detail: string;
    }>(`SELECT * FROM ${quoted(this.schema)}.observations ORDER BY id`);
    return result.rows.map((row) => ({
      kind: row.kind,
      schema: row.schema_name,
      worker: row.worker,
      queue: row.queue,
      instance: row.instance,
      messageKey: row.message_key,
      value: row.value === null ? null : Number(row.value),
      startedAtMs: Number(row.started_at_ms),
      endedAtMs: Number(row.ended_at_ms),
      detail: row.detail,
    }));
  }

  /** Drops the audit schema. */
  async drop(): Promise<void> {
    await this.pool.query(`DROP SCHEMA IF EXISTS ${quoted(this.schema)} CASCADE`);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
