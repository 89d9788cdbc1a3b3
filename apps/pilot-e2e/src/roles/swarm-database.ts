import pg from 'pg';
import type { ExecutionSize } from '../invariants/history-bounded.js';

/** Status and output of an instance's current execution. */
export interface InstanceRow {
  readonly instance: string;
  readonly status: string;
  readonly output: string | null;
  /** The output of its latest continued-as-new execution (the input it carried on), if any. */
  readonly carried: string | null;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The coordinator's own reads of the run's schemas, for progress and the final checks. These go
 * to the tables directly: they look at every instance at once, where the client API would take
 * one call per instance.
 * @throws {Error} from the constructor when a schema name is not a plain lower-case identifier.
 */
export class SwarmDatabase {
  readonly pool: pg.Pool;

  constructor(url: string, schemas: readonly string[]) {
    for (const schema of schemas) {
      if (!SCHEMA_NAME.test(schema))
        throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
    }
    this.pool = new pg.Pool({
      connectionString: url,
      max: 3,
      application_name: 'pilot-coordinator',
    });
    this.pool.on('error', () => undefined);
  }

  async dropSchema(schema: string): Promise<void> {
    await this.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }

  async serverVersion(): Promise<string> {
    const result = await this.pool.query<{ server_version: string }>('SHOW server_version');
    return result.rows[0]?.server_version ?? 'unknown';
  }

  /** The server's durability settings, as `name=value` pairs. */
  async durability(): Promise<string> {
    const result = await this.pool.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings
       WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes') ORDER BY name`,
    );
    return result.rows.map((row) => `${row.name}=${row.setting}`).join(' ');
  }

  /** Counts of planned instances (sessions and children, not digests) per current status. */
  async statusCounts(schema: string): Promise<Map<string, number>> {
    const result = await this.pool.query<{ status: string; count: string }>(
      `SELECT e.status, count(*) AS count FROM ${schema}.instances i
       JOIN ${schema}.executions e
         ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
       WHERE position(':' in i.instance_id) = 0
       GROUP BY e.status`,
    );
    return new Map(result.rows.map((row) => [row.status, Number(row.count)]));
  }

  /** Root sessions (ids without a child suffix) that completed. */
  async completedRoots(schema: string): Promise<number> {
    const result = await this.pool.query<{ count: string }>(
      `SELECT count(*) AS count FROM ${schema}.instances i
       JOIN ${schema}.executions e
         ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
       WHERE e.status = 'Completed' AND position('.' in i.instance_id) = 0
         AND position(':' in i.instance_id) = 0`,
    );
    return Number(result.rows[0]?.count ?? 0);
  }

  /** Every instance with its current status and output, and what it last carried on. */
  async instances(schema: string): Promise<InstanceRow[]> {
    const result = await this.pool.query<{
      instance_id: string;
      status: string | null;
      output: string | null;
      carried: string | null;
    }>(
      `SELECT i.instance_id, e.status, e.output,
              (SELECT c.output FROM ${schema}.executions c
               WHERE c.instance_id = i.instance_id AND c.status = 'ContinuedAsNew'
               ORDER BY c.execution_id DESC LIMIT 1) AS carried
       FROM ${schema}.instances i
       LEFT JOIN ${schema}.executions e
         ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id`,
    );
    return result.rows.map((row) => ({
      instance: row.instance_id,
      status: row.status ?? 'Unknown',
      output: row.output,
      carried: row.carried,
    }));
  }

  /** Rows left in the two queues, future timers and locked rows included. */
  async queueRows(schema: string): Promise<{ orchestrator: number; worker: number }> {
    const result = await this.pool.query<{ orchestrator: string; worker: string }>(
      `SELECT (SELECT count(*) FROM ${schema}.orchestrator_queue) AS orchestrator,
              (SELECT count(*) FROM ${schema}.worker_queue) AS worker`,
    );
    const row = result.rows[0];
    return { orchestrator: Number(row?.orchestrator ?? 0), worker: Number(row?.worker ?? 0) };
  }

  /** The `limit` largest executions by events and by bytes, and the number of executions. */
  async historySizes(
    schema: string,
    limit = 5,
  ): Promise<{ largest: ExecutionSize[]; executions: number }> {
    const sizes = `SELECT instance_id, execution_id, count(*) AS events, sum(length(event_data)) AS bytes
                   FROM ${schema}.history GROUP BY instance_id, execution_id`;
    const result = await this.pool.query<{
      instance_id: string;
      execution_id: string;
      events: string;
      bytes: string;
    }>(`(${sizes} ORDER BY events DESC LIMIT $1) UNION (${sizes} ORDER BY bytes DESC LIMIT $1)`, [
      limit,
    ]);
    const count = await this.pool.query<{ count: string }>(
      `SELECT count(*) AS count FROM ${schema}.executions`,
    );
    return {
      largest: result.rows.map((row) => ({
        schema,
        instance: row.instance_id,
        executionId: Number(row.execution_id),
        events: Number(row.events),
        bytes: Number(row.bytes),
      })),
      executions: Number(count.rows[0]?.count ?? 0),
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
