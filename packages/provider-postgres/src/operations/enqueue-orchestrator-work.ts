import { ProviderError, encodeWorkItem, workItemInstance, type WorkItem } from '@duro/core';
import type { CallOptions, ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';

const ENQUEUE_ORCHESTRATOR_WORK: Statement = {
  operation: 'enqueue_orchestrator_work',
  preparedAs: 'enq_orch',
  // The three trailing parameters (name, version, execution id) are unused by the procedure;
  // duroxide-pg passes NULL, since only an ack's metadata creates an instance.
  sql: (s) =>
    `SELECT ${s}.enqueue_orchestrator_work($1::text, $2::text, $3::timestamptz, NULL, NULL, NULL)`,
};

const ENQUEUE_ORCHESTRATOR_WORK_TOGETHER: Statement = {
  operation: 'enqueue_orchestrator_work',
  preparedAs: 'enq_orch_all',
  // A nested loop calls the procedure once per element, in the arrays' order.
  sql: (s) =>
    `SELECT count(*) FROM unnest($1::text[], $2::text[], $3::timestamptz[])
       AS m(instance_id, work_item, visible_at)
     CROSS JOIN LATERAL ${s}.enqueue_orchestrator_work(m.instance_id, m.work_item, m.visible_at,
                                                       NULL, NULL, NULL)`,
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

/** A message for an instance, checked and encoded, ready for `enqueue_orchestrator_work`. */
export interface OrchestratorMessage {
  readonly item: WorkItem;
  readonly delayMs: number | null;
  readonly instance: string;
  readonly text: string;
}

/**
 * Checks and encodes `item` for the orchestrator queue.
 * @throws {ProviderError} permanent for an `ActivityExecute`, which belongs to the worker queue,
 * or for an item that cannot be encoded.
 */
export function orchestratorMessage(item: WorkItem, delayMs: number | null): OrchestratorMessage {
  const operation = ENQUEUE_ORCHESTRATOR_WORK.operation;
  if (item.type === 'ActivityExecute') {
    throw ProviderError.permanent(
      operation,
      'ActivityExecute should go to worker queue, not orchestrator queue',
    );
  }
  return {
    item,
    delayMs,
    instance: workItemInstance(item),
    text: encodeWorkItemFor(operation, item),
  };
}

/**
 * Adds a message for an instance with `enqueue_orchestrator_work`; creates no instance. Returns
 * when the message becomes visible, epoch ms.
 */
export async function enqueueOrchestratorWork(
  db: ProviderDatabase,
  message: OrchestratorMessage,
): Promise<number> {
  const subject = { instance: message.instance };
  const [visibleAt] = await enqueueAll(
    db,
    ENQUEUE_ORCHESTRATOR_WORK,
    [message],
    ([at]) => [message.instance, message.text, at],
    { subject },
  );
  return visibleAt ?? 0;
}

/**
 * Adds several messages in one statement, one `enqueue_orchestrator_work` each, in the order
 * given. Returns when each becomes visible, epoch ms.
 */
export async function enqueueOrchestratorWorkTogether(
  db: ProviderDatabase,
  messages: readonly OrchestratorMessage[],
): Promise<number[]> {
  return enqueueAll(db, ENQUEUE_ORCHESTRATOR_WORK_TOGETHER, messages, (at) => [
    messages.map((message) => message.instance),
    messages.map((message) => message.text),
    at,
  ]);
}

/**
 * Runs `statement` for `messages`, their visible times taken from the clock of each attempt;
 * `values` receives those times as timestamp text.
 */
async function enqueueAll(
  db: ProviderDatabase,
  statement: Statement,
  messages: readonly OrchestratorMessage[],
  values: (visibleAtText: string[]) => readonly unknown[],
  options: CallOptions = {},
): Promise<number[]> {
  let visibleAt: number[] = [];
  await db.query(
    statement,
    (nowMs) => {
      visibleAt = messages.map((message) => visibleAtMs(message.item, message.delayMs, nowMs));
      return values(visibleAt.map((ms) => timestampText(statement.operation, ms)));
    },
    options,
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
