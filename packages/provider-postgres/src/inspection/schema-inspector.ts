import pg from 'pg';
import { sessionConfig } from '../connection/connection-target.js';
import { schemaNames } from '../migrations/schema-sql.js';
import { readActivityCounters, type ActivityCounters } from './activity-counters.js';
import { readExecutionHistory, type ExecutionHistory } from './execution-history.js';
import type { InspectedSchema } from './inspected-schema.js';
import { InspectionError } from './inspection-error.js';
import { readInstancePage, type InstancePage, type InstancePageRequest } from './instance-page.js';
import { readInstanceSummary, type InstanceSummary } from './instance-summary.js';
import { readInstanceTree, type InstanceHierarchy } from './instance-tree.js';
import { readQueueOverview, type QueueOverview } from './queue-overview.js';
import { readInstanceDiagnosis, type InstanceDiagnosis } from './read-instance-diagnosis.js';
import { countInstancesByStatus, type StatusCount } from './status-counts.js';

/** How {@link SchemaInspector.connect} opens its pool. */
export interface SchemaInspectorOptions {
  /** Connections in the pool. @default 3 */
  readonly poolSize?: number;
  /** PostgreSQL `application_name`. @default 'duro-inspect' */
  readonly applicationName?: string;
  /** How long to wait for a connection, ms. @default 10000 */
  readonly connectionTimeoutMs?: number;
}

/** The indexes of duro migration 11 that keep lists and counts bounded on large schemas. */
const LISTING_INDEXES = [
  'duro_idx_instances_created',
  'duro_idx_instances_name_created',
  'duro_idx_instances_id_pattern',
  'duro_idx_executions_status',
];

/**
 * Read-only views of a duro schema for operators' tools (`duro list`, `duro why`, `duro ui`):
 * pages of instances, counts by status, one instance with its executions, history and tree, what
 * keeps it from running, and the queues. It reads only the tables duroxide-pg defines, so it
 * works on a schema that the Rust provider migrated too; the indexes of duro migration 11 keep
 * its reads bounded on millions of instances.
 *
 * @example
 * ```ts
 * const inspector = await SchemaInspector.connect(process.env.DATABASE_URL!, 'orders');
 * const page = await inspector.listInstances({ status: 'Failed', limit: 20 });
 * for (const instance of page.instances) console.log(instance.instanceId, instance.status);
 * await inspector.close();
 * ```
 */
export class SchemaInspector {
  /** The pool and the schema the reads go to. */
  readonly schema: InspectedSchema;
  #ownedPool: pg.Pool | null = null;

  /**
   * An inspector on `schema` that sends its reads through `pool` (which it never closes).
   * @throws {InvalidSchemaNameError} for a schema name that is not a safe identifier.
   */
  constructor(pool: Pick<pg.Pool, 'query'>, schema: string) {
    const names = schemaNames(schema);
    this.schema = { pool, schemaSql: names.identifier, schemaName: names.folded };
  }

  /**
   * Opens a pool on `databaseUrl` and an inspector on `schema`, once the schema is found migrated.
   * TLS is set up as the provider sets it up: from the URL's `sslmode` and the like, else libpq's
   * `PGSSLMODE` and the like in the environment.
   * @throws {InspectionError} (`schema-not-migrated`) when the schema has no duro tables; the
   * `pg` error when the database cannot be reached.
   */
  static async connect(
    databaseUrl: string,
    schema: string,
    options: SchemaInspectorOptions = {},
  ): Promise<SchemaInspector> {
    schemaNames(schema);
    const session = await sessionConfig(
      { kind: 'url', url: databaseUrl },
      {
        applicationName: options.applicationName ?? 'duro-inspect',
        connectionTimeoutMs: options.connectionTimeoutMs ?? 10_000,
        lockWaitTimeoutMs: 0,
        statementTimeoutMs: 0,
        ssl: undefined,
      },
    );
    const pool = new pg.Pool({ ...session, max: options.poolSize ?? 3 });
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => undefined);
    const inspector = new SchemaInspector(pool, schema);
    inspector.#ownedPool = pool;
    try {
      await inspector.checkMigrated();
      return inspector;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Checks that the schema holds duro's tables.
   * @throws {InspectionError} (`schema-not-migrated`) when it does not.
   */
  async checkMigrated(): Promise<void> {
    const { rows } = await this.schema.pool.query<{ present: boolean }>(
      `SELECT to_regclass($1) IS NOT NULL AS present`,
      [`${this.schema.schemaSql}.instances`],
    );
    if (rows[0]?.present !== true) {
      const name = this.schema.schemaName;
      throw new InspectionError(
        `schema '${name}' has no duro tables; run 'duro migrate --schema ${name}' first`,
        'schema-not-migrated',
      );
    }
  }

  /**
   * Whether the schema has the indexes of duro migration 11; without them (a schema only the
   * Rust provider migrated) a list or a count sorts or scans whole tables.
   */
  async hasListingIndexes(): Promise<boolean> {
    const { rows } = await this.schema.pool.query<{ found: string }>(
      `SELECT count(*) AS found FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2)`,
      [this.schema.schemaName, LISTING_INDEXES],
    );
    return Number(rows[0]?.found) === LISTING_INDEXES.length;
  }

  /** A page of instances, newest first; see {@link readInstancePage}. */
  listInstances(request: InstancePageRequest = {}): Promise<InstancePage> {
    return readInstancePage(this.schema, request);
  }

  /** Instances by status; see {@link countInstancesByStatus}. */
  countInstancesByStatus(): Promise<StatusCount[]> {
    return countInstancesByStatus(this.schema);
  }

  /** One instance, or `null`; see {@link readInstanceSummary}. */
  readInstance(instanceId: string, maxExecutions?: number): Promise<InstanceSummary | null> {
    return readInstanceSummary(this.schema, instanceId, maxExecutions);
  }

  /** The events of one execution; see {@link readExecutionHistory}. */
  readExecutionHistory(
    instanceId: string,
    executionId: number,
    maxEvents?: number,
  ): Promise<ExecutionHistory> {
    return readExecutionHistory(this.schema, instanceId, executionId, maxEvents);
  }

  /** The sub-orchestration tree of an instance, or `null`; see {@link readInstanceTree}. */
  readInstanceTree(instanceId: string, maxNodes?: number): Promise<InstanceHierarchy | null> {
    return readInstanceTree(this.schema, instanceId, maxNodes);
  }

  /** What decides whether an instance can run now; explain it with `explainDiagnosis`. */
  readInstanceDiagnosis(instanceId: string): Promise<InstanceDiagnosis> {
    return readInstanceDiagnosis(this.schema, instanceId);
  }

  /** The queues, locks and sessions; see {@link readQueueOverview}. */
  readQueueOverview(nowMs = Date.now()): Promise<QueueOverview> {
    return readQueueOverview(this.schema, nowMs);
  }

  /** Running totals for throughput; see {@link readActivityCounters}. */
  readActivityCounters(nowMs = Date.now()): Promise<ActivityCounters> {
    return readActivityCounters(this.schema, nowMs);
  }

  /** Closes the pool that {@link SchemaInspector.connect} opened; nothing otherwise. */
  async close(): Promise<void> {
    await this.#ownedPool?.end();
  }
}
