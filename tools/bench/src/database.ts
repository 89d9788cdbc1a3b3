import { readFileSync } from 'node:fs';
import { encodeWorkItem } from '@duro/core';
import pg from 'pg';

const INSUFFICIENT_PRIVILEGE = '42501';

/** Transactions the server has counted for the current database, committed and rolled back. */
export interface TransactionCounts {
  readonly commits: number;
  readonly rollbacks: number;
}

/**
 * The bench's own connection to the server: fresh schemas, the future-timer backlog, and the
 * transaction counters of `pg_stat_database`.
 */
export class BenchDatabase {
  private mayCheckpoint = true;

  private constructor(private readonly client: pg.Client) {}

  static async connect(url: string): Promise<BenchDatabase> {
    const client = new pg.Client({ connectionString: url, application_name: 'duro-bench' });
    await client.connect();
    return new BenchDatabase(client);
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  /**
   * The server's postmaster, as this machine's `/proc` shows it (the parent of this session's
   * backend), to count the server's CPU; null when the server runs elsewhere.
   */
  async serverProcessId(): Promise<number | null> {
    const { rows } = await this.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const backend = rows[0]?.pid;
    if (backend === undefined) return null;
    try {
      const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return Number.isSafeInteger(ppid) && ppid > 1 ? ppid : null;
    } catch {
      return null;
    }
  }

  /** Drops `schema` with everything in it. */
  async dropSchema(schema: string): Promise<void> {
    await this.client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }

  /**
   * Writes every dirty buffer out with CHECKPOINT, so a cell does not pay for the writes of what
   * ran before it (pgbench's tables, an earlier cell). Without the right to (a role lacking
   * `pg_checkpoint`), it warns once and the cells run unsettled.
   * @returns whether the checkpoint ran.
   */
  async checkpoint(): Promise<boolean> {
    if (!this.mayCheckpoint) return false;
    try {
      await this.client.query('CHECKPOINT');
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== INSUFFICIENT_PRIVILEGE) throw error;
      this.mayCheckpoint = false;
      console.error(`duro-bench: cells start without a CHECKPOINT: ${(error as Error).message}`);
      return false;
    }
  }

  /**
   * Queues `count` timers that fire a day from now, for instances that do not exist, in the
   * orchestrator queue of a migrated `schema`: a backlog every fetch must look past.
   */
  async queueFutureTimers(schema: string, count: number): Promise<void> {
    if (count === 0) return;
    const fireAtMs = Date.now() + 24 * 3600 * 1000;
    const sample = encodeWorkItem({
      type: 'TimerFired',
      instance: 'future-timer-0',
      executionId: 1,
      id: 2,
      fireAtMs,
    });
    // One statement: the work item text differs only in its instance id.
    await this.client.query(
      `INSERT INTO "${schema}".orchestrator_queue (instance_id, work_item, visible_at, created_at)
       SELECT 'future-timer-' || n, replace($1, 'future-timer-0', 'future-timer-' || n),
              to_timestamp($2 / 1000.0), now()
       FROM generate_series(0, $3 - 1) AS n`,
      [sample, fireAtMs, count],
    );
    await this.client.query(`ANALYZE "${schema}".orchestrator_queue`);
  }

  /**
   * The database's transaction counters, once every other session of the bench has ended: a
   * backend reports its counts at exit, or up to a second or more later while it stays idle, so
   * the counts are read after the runtime under test has closed its connections.
   */
  async transactionCounts(): Promise<TransactionCounts> {
    await this.waitForOtherSessionsToEnd();
    await this.client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await this.client.query<{ commits: string; rollbacks: string }>(
      `SELECT xact_commit AS commits, xact_rollback AS rollbacks
       FROM pg_stat_database WHERE datname = current_database()`,
    );
    const row = rows[0];
    if (row === undefined) throw new Error('pg_stat_database has no row for this database');
    return { commits: Number(row.commits), rollbacks: Number(row.rollbacks) };
  }

  private async waitForOtherSessionsToEnd(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await this.client.query<{ others: string }>(
        `SELECT count(*) AS others FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      if (rows[0]?.others === '0' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // An exiting backend reports its counts just before it leaves pg_stat_activity.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
