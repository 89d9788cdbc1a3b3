import type { InspectedSchema } from './inspected-schema.js';
import { COUNT_BOUND, countBounded } from './bounded-count.js';
import { INSTANCE_STATUSES, type InstanceStatus } from './instance-statuses.js';

/** How many instances have a status, and how that number was obtained. */
export interface StatusCount {
  /** The status of the current executions counted. */
  readonly status: InstanceStatus;
  /** How many instances have it; how exact the number is says `precision`. */
  readonly count: number;
  /**
   * `exact`: counted. `estimate`: more than 50,000, so the number is PostgreSQL's statistics
   * estimate (as fresh as the table's last analyze). `atLeast`: the count stopped at its bound.
   */
  readonly precision: 'exact' | 'estimate' | 'atLeast';
}

/**
 * Executions of the statuses between two executions examined at most: each is checked against
 * its instance, some 5 µs apiece on a two-core server.
 */
const BETWEEN_EXECUTIONS_BOUND = 5_000;

/**
 * A status whose statistics estimate exceeds the count bound is not counted: its count would
 * most likely stop at the bound, after reading as many rows as the bound for nothing.
 */
const ESTIMATE_ONLY_ABOVE = COUNT_BOUND;

/**
 * Counts the instances by the status of their current execution, in bounded time: a status
 * with more than 50,000 instances gets the statistics estimate instead of a count.
 *
 * An execution that is not its instance's current one has continued as new (duroxide-pg writes
 * `ContinuedAsNew` on it before the next execution's row exists), so `Running`, `Completed` and
 * `Failed` executions are counted alone, reading the status index only. `ContinuedAsNew` counts
 * the instances whose current execution it is (those between two executions), checking such
 * executions against their instance, 5,000 at most (beyond that the count is `atLeast`).
 */
export async function countInstancesByStatus(schema: InspectedSchema): Promise<StatusCount[]> {
  const estimates = await estimateStatuses(schema);
  const s = schema.schemaSql;
  const counted = await Promise.all(
    INSTANCE_STATUSES.filter((status) => status !== 'ContinuedAsNew').map(
      async (status): Promise<StatusCount> => {
        const estimate = estimates.get(status);
        if (estimate !== undefined && estimate > ESTIMATE_ONLY_ABOVE) {
          return { status, count: estimate, precision: 'estimate' };
        }
        const bounded = await countBounded(schema, `${s}.executions WHERE status = $1`, [status]);
        return bounded.atLeast
          ? { status, count: Math.max(estimate ?? 0, COUNT_BOUND + 1), precision: 'estimate' }
          : { status, count: bounded.count, precision: 'exact' };
      },
    ),
  );
  return [...counted, await countBetweenExecutions(schema)];
}

async function countBetweenExecutions(schema: InspectedSchema): Promise<StatusCount> {
  const s = schema.schemaSql;
  const { rows } = await schema.pool.query<{ current: string; examined: string }>(
    `SELECT count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM ${s}.instances i
               WHERE i.instance_id = c.instance_id AND i.current_execution_id = c.execution_id
            )) AS current,
            count(*) AS examined
       FROM (SELECT instance_id, execution_id FROM ${s}.executions
              WHERE status = 'ContinuedAsNew' LIMIT ${BETWEEN_EXECUTIONS_BOUND + 1}) c`,
  );
  const examined = Number(rows[0]?.examined ?? 0);
  return {
    status: 'ContinuedAsNew',
    count: Number(rows[0]?.current ?? 0),
    precision: examined > BETWEEN_EXECUTIONS_BOUND ? 'atLeast' : 'exact',
  };
}

/**
 * Executions per status by the planner's statistics (most-common-value frequency × rows), as
 * fresh as the table's last analyze; empty when it was never analyzed.
 */
async function estimateStatuses(schema: InspectedSchema): Promise<Map<string, number>> {
  const { rows } = await schema.pool.query<{ status: string; estimated: string }>(
    `SELECT v.status, round(v.frequency * greatest(c.reltuples, 0))::bigint AS estimated
       FROM pg_stats st
       CROSS JOIN LATERAL unnest(st.most_common_vals::text::text[], st.most_common_freqs)
                  AS v(status, frequency)
       JOIN pg_class c ON c.oid = to_regclass($2)
      WHERE st.schemaname = $1 AND st.tablename = 'executions' AND st.attname = 'status'`,
    [schema.schemaName, `${schema.schemaSql}.executions`],
  );
  return new Map(rows.map((row) => [row.status, Number(row.estimated)]));
}
