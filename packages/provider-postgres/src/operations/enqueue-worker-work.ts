import { ProviderError, type WorkItem } from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';
import { encodeWorkItemFor } from './enqueue-orchestrator-work.js';

const ENQUEUE_WORKER_WORK: Statement = {
  operation: 'enqueue_worker_work',
  preparedAs: 'enq_work',
  sql: (s) =>
    `SELECT ${s}.enqueue_worker_work($1::text, $2::bigint, $3::text, $4::bigint, $5::bigint, ` +
    `$6::text, $7::text)`,
};

/**
 * Adds an activity to the worker queue with `enqueue_worker_work`, visible at once, with the
 * routing columns (instance, execution, activity id, session, tag) the fetch and cancellation
 * read.
 * @throws {ProviderError} permanent for anything but an `ActivityExecute`.
 */
export async function enqueueWorkerWork(db: ProviderDatabase, item: WorkItem): Promise<void> {
  const operation = ENQUEUE_WORKER_WORK.operation;
  if (item.type !== 'ActivityExecute') {
    throw ProviderError.permanent(
      operation,
      `only ActivityExecute belongs to the worker queue, got ${item.type}`,
    );
  }
  const text = encodeWorkItemFor(operation, item);
  await db.query(
    ENQUEUE_WORKER_WORK,
    (nowMs) => [
      text,
      nowMs,
      item.instance,
      item.executionId,
      item.id,
      item.sessionId ?? null,
      item.tag ?? null,
    ],
    { subject: { instance: item.instance } },
  );
}
