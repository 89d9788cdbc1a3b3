import type { InspectedSchema } from './inspected-schema.js';
import { COUNT_BOUND, countBounded } from './bounded-count.js';
import { INSTANCE_STATUSES, type InstanceStatus } from './instance-statuses.js';

/** How many instances have a status, and how that number was obtained. */
export interface StatusCount {
  readonly status: InstanceStatus;
  readonly count: number;
  /**
   * `exact`: counted. `estimate`: more than 100,000, so the number is PostgreSQL's statistics
   * estimate (as fresh as the table's last analyze), never below 100,001. `atLeast`: the count
   * stopped at its bound.
   */
  readonly precision: 'exact' | 'estimate' | 'atLeast';
}

/**
 * Counts the instances by the status of their current execution, reading at most 100,000 rows
 * per status.
 *
 * An execution that is not its instance's current one has continued as new (duroxide-pg writes
 * `ContinuedAsNew` on it before the next execution's row exists), so `Running`, `Completed` and
 * `Failed` executions are counted alone. `ContinuedAsNew` counts only the instances whose
 * current execution it is (those between two executions), checking each such execution against
 * its instance.
 */
export async function countInstancesByStatus(schema: InspectedSchema): Promise<StatusCount[]> {
  const s = schema.schemaSql;
  const counts: StatusCount[] = [];
  const capped: InstanceStatus[] = [];
  for (const status of INSTANCE_STATUSES) {
    if (status === 'ContinuedAsNew') continue;
    const counted = await countBounded(schema, `${s}.executions WHERE status = $1`, [status]);
    if (counted.atLeast) capped.push(status);
    counts.push({ status, count: counted.count, precision: 'exact' });
  }
  counts.push(await countBetweenExecutions(schema));
  if (capped.length === 0) return counts;
  const estimates = await estimateStatuses(schema);
  return counts.map((entry) =>
    capped.includes(entry.status)
      ? {
          status: entry.status,
          count: Math.max(estimates.get(entry.status) ?? 0, COUNT_BOUND + 1),
          precision: 'estimate',
        }
      : entry,
  );
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
              WHERE status = 'ContinuedAsNew' LIMIT ${COUNT_BOUND + 1}) c`,
  );
  const examined = Number(rows[0]?.examined ?? 0);
  return {
    status: 'ContinuedAsNew',
    count: Number(rows[0]?.current ?? 0),
    precision: examined > COUNT_BOUND ? 'atLeast' : 'exact',
  };
}

/** Executions per status by the planner's statistics: most-common-value frequency × rows. */
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
