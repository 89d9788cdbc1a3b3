import type { ProviderDatabase } from '../provider-database.js';
import { readRows } from '../rows.js';
import type { Statement } from '../statement.js';
import type { WakeupQueue } from '../wakeup-channel.js';

// No duroxide procedure answers "when does the next delayed message come due", so these read the
// queue tables directly (served by idx_orch_visible and idx_worker_visible). Rows that are not
// visible yet are never claimed, so an unlocked row with a future visible_at is a timer, a
// delayed enqueue or a delayed abandon. The time is rounded up: waking a moment early would find
// nothing and drop the time as past.
const nextVisibleIn = (table: string): Statement => ({
  operation: 'next_visible_at',
  sql: (s) =>
    `SELECT ceil(extract(epoch FROM min(visible_at)) * 1000)::bigint AS due_ms ` +
    `FROM ${s}.${table} ` +
    `WHERE lock_token IS NULL AND visible_at > to_timestamp($1::bigint / 1000.0)`,
});

const NEXT_VISIBLE_AT: Readonly<Record<WakeupQueue, Statement>> = {
  orchestrator: nextVisibleIn('orchestrator_queue'),
  worker: nextVisibleIn('worker_queue'),
};

/**
 * When the next message of `queue` that is not visible yet becomes visible, epoch ms on the
 * caller's clock; `null` when there is none.
 */
export async function nextVisibleAt(
  db: ProviderDatabase,
  queue: WakeupQueue,
): Promise<number | null> {
  const statement = NEXT_VISIBLE_AT[queue];
  const rows = await db.query(statement, (nowMs) => [nowMs]);
  return readRows(statement.operation, rows)[0]?.optionalInteger('due_ms') ?? null;
}
