import { ProviderError, workItemInstance, type WorkItem } from '@duro/core';
import type { KnownFailure } from '../database/errors.js';
import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';
import { encodeWorkItemFor } from './enqueue-orchestrator-work.js';

const ACK_WORKER: Statement = {
  operation: 'ack_worker',
  preparedAs: 'ack_work',
  sql: (s) => `SELECT ${s}.ack_worker($1::text, $2::text, $3::text, $4::bigint)`,
};

const ITEM_GONE: readonly KnownFailure[] = [
  {
    whenMessageContains: 'Worker queue item not found',
    detail: 'Worker queue item not found or already processed',
  },
];

/**
 * Deletes a locked activity with `ack_worker` and, in the same transaction, enqueues its
 * completion for the orchestration; with no completion (a cancelled activity) only deletes it.
 * The lease is checked against the caller's clock.
 * @throws {ProviderError} permanent with "Worker queue item not found or already processed" when
 * the lock is unknown, expired or the activity was cancelled; permanent for a completion that is
 * not `ActivityCompleted` or `ActivityFailed`.
 */
export async function ackWorkItem(
  db: ProviderDatabase,
  lockToken: string,
  completion: WorkItem | null,
  instance?: string,
): Promise<void> {
  const operation = ACK_WORKER.operation;
  if (completion === null) {
    await db.query(ACK_WORKER, (nowMs) => [lockToken, null, null, nowMs], {
      subject: { instance },
      known: ITEM_GONE,
    });
    return;
  }
  if (completion.type !== 'ActivityCompleted' && completion.type !== 'ActivityFailed') {
    throw ProviderError.permanent(
      operation,
      `Invalid completion work item type: ${completion.type}`,
    );
  }
  const target = workItemInstance(completion);
  const text = encodeWorkItemFor(operation, completion);
  await db.query(ACK_WORKER, (nowMs) => [lockToken, target, text, nowMs], {
    subject: { instance: target },
    known: ITEM_GONE,
  });
}
