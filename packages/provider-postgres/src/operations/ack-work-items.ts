import {
  ProviderError,
  requireDistinctLockTokens,
  workItemInstance,
  type WorkItemAck,
  type WorkItemAckOutcome,
} from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';
import { encodeWorkItemFor } from './enqueue-orchestrator-work.js';

// Each row is `ack_worker` for one lock: deleted only under a live lease, its completion (if
// any) enqueued visible now, in the order given, and its session's activity noted. A lock that
// is gone deletes nothing and enqueues nothing; the others still commit.
const ACK_WORK_ITEMS: Statement = {
  operation: 'ack_work_items',
  preparedAs: 'ack_works',
  sql: (s) => `
WITH acks AS (
    SELECT a.lock_token, a.instance_id, a.completion, a.position
    FROM unnest($1::text[], $2::text[], $3::text[])
         WITH ORDINALITY AS a(lock_token, instance_id, completion, position)
),
deleted AS (
    DELETE FROM ${s}.worker_queue q
    USING acks a
    WHERE q.lock_token = a.lock_token AND q.locked_until > $4::bigint
    RETURNING q.lock_token, q.session_id, a.instance_id, a.completion, a.position
),
enqueued AS (
    INSERT INTO ${s}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
    SELECT d.instance_id, d.completion, to_timestamp($4::bigint / 1000.0),
           to_timestamp($4::bigint / 1000.0)
    FROM deleted d
    WHERE d.completion IS NOT NULL
    ORDER BY d.position
),
touched_sessions AS (
    UPDATE ${s}.sessions s SET last_activity_at = $4::bigint
    WHERE s.session_id IN (SELECT d.session_id FROM deleted d) AND s.locked_until > $4::bigint
)
SELECT lock_token FROM deleted`,
};

/** One acknowledgement ready for the statement, or the reason it cannot be sent. */
interface Sendable {
  readonly lockToken: string;
  readonly instance: string | null;
  readonly text: string | null;
}
type Prepared = Sendable | ProviderError;

function prepare(operation: string, { lockToken, completion }: WorkItemAck): Prepared {
  if (completion === null) return { lockToken, instance: null, text: null };
  if (completion.type !== 'ActivityCompleted' && completion.type !== 'ActivityFailed') {
    return ProviderError.permanent(
      operation,
      `Invalid completion work item type: ${completion.type}`,
    );
  }
  try {
    const text = encodeWorkItemFor(operation, completion);
    return { lockToken, instance: workItemInstance(completion), text };
  } catch (error) {
    if (ProviderError.isInstance(error)) return error;
    throw error;
  }
}

/**
 * Acknowledges several locked activities in one statement, each as `ackWorkItem` would; the
 * outcomes come back in the order of `acks`. An item whose lock is unknown, expired or cancelled
 * fails alone with "Worker queue item not found or already processed", as does one whose
 * completion is not `ActivityCompleted` or `ActivityFailed` (that one is not sent).
 * @throws {ProviderError} permanent when a lock token appears twice; whatever the statement
 * failed with as a whole (nothing was then committed).
 */
export async function ackWorkItems(
  db: ProviderDatabase,
  acks: readonly WorkItemAck[],
  instanceOf: (lockToken: string) => string | undefined,
): Promise<WorkItemAckOutcome[]> {
  const operation = ACK_WORK_ITEMS.operation;
  requireDistinctLockTokens(operation, acks);
  const prepared = acks.map((ack) => prepare(operation, ack));
  const sent = prepared.filter((entry): entry is Sendable => !ProviderError.isInstance(entry));
  const acked = new Set<string>();
  if (sent.length > 0) {
    const rows = await db.query(ACK_WORK_ITEMS, (nowMs) => [
      sent.map((entry) => entry.lockToken),
      sent.map((entry) => entry.instance),
      sent.map((entry) => entry.text),
      nowMs,
    ]);
    for (const row of readRows(operation, rows)) acked.add(row.text('lock_token'));
  }
  return prepared.map((entry): WorkItemAckOutcome => {
    if (ProviderError.isInstance(entry)) return { ok: false, error: entry };
    if (acked.has(entry.lockToken)) return { ok: true };
    const instance = entry.instance ?? instanceOf(entry.lockToken);
    const detail = 'Worker queue item not found or already processed';
    return {
      ok: false,
      error: ProviderError.permanent(
        operation,
        instance === undefined ? detail : `${detail} (instance ${instance})`,
      ),
    };
  });
}
