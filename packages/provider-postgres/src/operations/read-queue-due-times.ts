import type { ProviderDatabase } from '../database/provider-database.js';
import { readOptionalRow } from '../database/rows.js';
import type { Statement } from '../database/statement.js';
import type { WakeupQueue } from '../wakeup-channel.js';

// No duroxide procedure says when delayed messages come due, so these read the queue tables
// directly; both subqueries are index range scans (idx_orch_visible, idx_worker_visible). A
// message that is not visible yet is never claimed, so an unlocked row with a future visible_at
// is a timer, a delayed enqueue or a delayed abandon. The next time is rounded up: waking a
// moment early would find nothing.
const dueIn = (table: string): Statement => ({
  operation: 'next_visible_at',
  sql: (s) =>
    `SELECT (SELECT ceil(extract(epoch FROM q.visible_at) * 1000)::bigint ` +
    `FROM ${s}.${table} q WHERE q.lock_token IS NULL AND q.visible_at > to_timestamp($2::bigint / 1000.0) ` +
    `ORDER BY q.visible_at LIMIT 1) AS next_ms, ` +
    `EXISTS (SELECT 1 FROM ${s}.${table} q WHERE q.lock_token IS NULL ` +
    `AND q.visible_at > to_timestamp($1::bigint / 1000.0) ` +
    `AND q.visible_at <= to_timestamp($2::bigint / 1000.0)) AS due_since`,
});

const DUE_IN: Readonly<Record<WakeupQueue, Statement>> = {
  orchestrator: dueIn('orchestrator_queue'),
  worker: dueIn('worker_queue'),
};

/** When a queue's delayed messages come due, as read at one moment. @internal */
export interface QueueDueTimes {
  /** The caller's clock when the read ran, epoch ms. */
  readonly readAtMs: number;
  /** The start of the window `dueSince` looked at, epoch ms. */
  readonly sinceMs: number;
  /** When the next message that is not visible yet becomes visible, epoch ms; `null`: none. */
  readonly nextMs: number | null;
  /** Whether an unclaimed message became visible after `sinceMs` and by `readAtMs`. */
  readonly dueSince: boolean;
}

/**
 * Reads when `queue`'s delayed messages come due, on the caller's clock, and whether one came
 * due (and is still unclaimed) after `sinceMs` (epoch ms).
 */
export async function readQueueDueTimes(
  db: ProviderDatabase,
  queue: WakeupQueue,
  sinceMs: number,
): Promise<QueueDueTimes> {
  const statement = DUE_IN[queue];
  let readAtMs = sinceMs;
  const rows = await db.query(statement, (nowMs) => {
    readAtMs = nowMs;
    return [sinceMs, nowMs];
  });
  const row = readOptionalRow(statement.operation, rows);
  return {
    readAtMs,
    sinceMs,
    nextMs: row?.optionalInteger('next_ms') ?? null,
    dueSince: row?.boolean('due_since') ?? false,
  };
}
