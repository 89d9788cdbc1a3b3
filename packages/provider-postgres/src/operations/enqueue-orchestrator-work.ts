import { ProviderError, encodeWorkItem, workItemInstance, type WorkItem } from '@duro/core';
import type { ProviderDatabase } from '../provider-database.js';
import type { Statement } from '../statement.js';

const ENQUEUE_ORCHESTRATOR_WORK: Statement = {
  operation: 'enqueue_orchestrator_work',
  preparedAs: 'enq_orch',
  // The three trailing parameters (name, version, execution id) are unused by the procedure;
  // duroxide-pg passes NULL, since only an ack's metadata creates an instance.
  sql: (s) =>
    `SELECT ${s}.enqueue_orchestrator_work($1::text, $2::text, $3::timestamptz, NULL, NULL, NULL)`,
};

/**
 * When a message becomes visible, epoch ms: a timer at its fire time (or later, when `delayMs`
 * says so), anything else `delayMs` from now. As duroxide-pg's `enqueue_for_orchestrator`.
 */
export function visibleAtMs(item: WorkItem, delayMs: number | null, nowMs: number): number {
  const delayed = nowMs + (delayMs ?? 0);
  if (item.type === 'TimerFired' && item.fireAtMs > 0) {
    return delayMs === null ? item.fireAtMs : Math.max(item.fireAtMs, delayed);
  }
  return delayed;
}

/**
 * Adds a message for an instance with `enqueue_orchestrator_work`; creates no instance. Returns
 * when the message becomes visible, epoch ms.
 * @throws {ProviderError} permanent for an `ActivityExecute`, which belongs to the worker queue.
 */
export async function enqueueOrchestratorWork(
  db: ProviderDatabase,
  item: WorkItem,
  delayMs: number | null,
): Promise<number> {
  const operation = ENQUEUE_ORCHESTRATOR_WORK.operation;
  if (item.type === 'ActivityExecute') {
    throw ProviderError.permanent(
      operation,
      'ActivityExecute should go to worker queue, not orchestrator queue',
    );
  }
  const instance = workItemInstance(item);
  const text = encodeWorkItemFor(operation, item);
  let visibleAt = 0;
  await db.query(
    ENQUEUE_ORCHESTRATOR_WORK,
    (nowMs) => {
      visibleAt = visibleAtMs(item, delayMs, nowMs);
      return [instance, text, timestampText(operation, visibleAt)];
    },
    { subject: { instance } },
  );
  return visibleAt;
}

/** Latest instant a JavaScript `Date` (and so this provider) can express, epoch ms. */
const MAX_DATE_MS = 8.64e15;

function timestampText(operation: string, epochMs: number): string {
  if (!Number.isFinite(epochMs) || Math.abs(epochMs) > MAX_DATE_MS) {
    throw ProviderError.permanent(operation, `Invalid visible_at timestamp: ${epochMs} ms`);
  }
  return new Date(epochMs).toISOString();
}

/**
 * `encodeWorkItem`, failing as a permanent {@link ProviderError} of `operation`.
 * @internal
 */
export function encodeWorkItemFor(operation: string, item: WorkItem): string {
  try {
    return encodeWorkItem(item);
  } catch (error) {
    throw ProviderError.permanent(operation, `Failed to serialize work item: ${String(error)}`, {
      cause: error,
    });
  }
}
