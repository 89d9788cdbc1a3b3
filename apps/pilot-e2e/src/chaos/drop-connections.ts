import { workerApplicationName } from '../roles/ipc-messages.js';
import { pickRunning, type ChaosContext, type FaultOutcome } from './chaos-context.js';

/** Terminates every PostgreSQL connection of one worker's provider (pool and listener). */
export async function dropConnections(context: ChaosContext): Promise<FaultOutcome> {
  const atMs = Date.now();
  const slot = pickRunning(context);
  if (slot === undefined) {
    return {
      kind: 'connection-drop',
      injected: false,
      target: '-',
      atMs,
      detail: 'no worker running',
    };
  }
  const result = await context.admin.query<{ terminated: boolean }>(
    `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
     WHERE application_name = $1 AND pid <> pg_backend_pid()`,
    [workerApplicationName(slot.nodeId)],
  );
  const count = result.rows.filter((row) => row.terminated).length;
  return {
    kind: 'connection-drop',
    injected: count > 0,
    target: slot.nodeId,
    atMs,
    detail: `pg_terminate_backend on ${count} connection(s)`,
  };
}
