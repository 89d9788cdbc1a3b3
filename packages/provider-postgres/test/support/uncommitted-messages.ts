import { encodeWorkItem, workItemInstance, type WorkItem } from '@duro/core';
import pg from 'pg';
import type { TestDatabase } from './test-database.js';

/**
 * Adds `messages` in one statement of a transaction left open on a connection of its own, as
 * an activity's completion is while its commit is flushed; `commit` ends it (again does nothing).
 */
export async function addingInOneStatement(
  database: TestDatabase,
  schema: string,
  messages: readonly WorkItem[],
): Promise<{ readonly backendPid: number; commit(): Promise<void> }> {
  const adding = new pg.Client({ connectionString: database.url });
  await adding.connect();
  await adding.query('BEGIN');
  await adding.query(
    `SELECT "${schema}".enqueue_orchestrator_work(m.instance_id, m.work_item, now(), NULL, NULL, NULL)
     FROM unnest($1::text[], $2::text[]) AS m(instance_id, work_item)`,
    [messages.map(workItemInstance), messages.map(encodeWorkItem)],
  );
  const pid = (await adding.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
  if (pid === undefined) throw new Error('pg_backend_pid() returned no row');
  let open = true;
  return {
    backendPid: pid,
    commit: async () => {
      if (!open) return;
      open = false;
      await adding.query('COMMIT');
      await adding.end();
    },
  };
}
