import { setTimeout as sleep } from 'node:timers/promises';
import { workerApplicationName } from '../roles/ipc-messages.js';
import type { WorkerSlot } from '../roles/worker-slot.js';
import { pickRunning, type ChaosContext, type FaultOutcome } from './chaos-context.js';

/**
 * How long a drop looks for a running worker that holds connections, ms. Right after a server
 * restart, or a worker's own start, no worker may be connected yet.
 */
const CONNECTED_TARGET_TIMEOUT_MS = 5_000;
const CONNECTED_TARGET_POLL_MS = 250;

/** The application names that hold connections now. */
async function connectedApplications(context: ChaosContext): Promise<Set<string>> {
  const result = await context.admin.query<{ application_name: string }>(
    `SELECT DISTINCT application_name FROM pg_stat_activity WHERE pid <> pg_backend_pid()`,
  );
  return new Set(result.rows.map((row) => row.application_name));
}

/** A random running worker that holds connections, waiting a little for one to connect. */
async function pickConnected(context: ChaosContext): Promise<WorkerSlot | undefined> {
  const deadline = Date.now() + CONNECTED_TARGET_TIMEOUT_MS;
  for (;;) {
    const connected = await connectedApplications(context);
    const slot = pickRunning(context, (candidate) =>
      connected.has(workerApplicationName(candidate.nodeId)),
    );
    if (slot !== undefined || Date.now() > deadline) return slot;
    await sleep(CONNECTED_TARGET_POLL_MS);
  }
}

/** Terminates every PostgreSQL connection of one connected worker's provider (pool and listener). */
export async function dropConnections(context: ChaosContext): Promise<FaultOutcome> {
  const slot = await pickConnected(context);
  // Taken before the cut: the checks treat connections as lost from this moment on.
  const atMs = Date.now();
  if (slot === undefined) {
    return {
      kind: 'connection-drop',
      injected: false,
      target: '-',
      atMs,
      detail: 'no running worker held a connection',
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
