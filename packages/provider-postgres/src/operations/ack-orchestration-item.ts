import type { KnownFailure } from '../database/errors.js';
import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';
import type { AckPayload } from './ack-payload.js';

const ACK_ORCHESTRATION_ITEM: Statement = {
  operation: 'ack_orchestration_item',
  preparedAs: 'ack_orch',
  sql: (s) =>
    `SELECT ${s}.ack_orchestration_item($1::text, $2::bigint, $3::bigint, $4::jsonb, ` +
    `$5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb)`,
};

/** The texts callers match on; duroxide-pg reports every lock failure of an ack as this one. */
export const INVALID_LOCK_TOKEN: readonly KnownFailure[] = [
  { whenMessageContains: 'Invalid lock token', detail: 'Invalid lock token' },
];

/**
 * Commits one orchestration turn with `ack_orchestration_item`: history, new work, metadata,
 * cancelled activities, and the release of the instance lock, in one transaction. The lease is
 * checked against the caller's clock at the time of the call.
 * @throws {ProviderError} permanent with "Invalid lock token" when the lock is unknown or has
 * expired; nothing is written then.
 */
export async function ackOrchestrationItem(
  db: ProviderDatabase,
  lockToken: string,
  executionId: number,
  payload: AckPayload,
  instance?: string,
): Promise<void> {
  await db.query(
    ACK_ORCHESTRATION_ITEM,
    (nowMs) => [
      lockToken,
      nowMs,
      executionId,
      payload.historyDelta,
      payload.workerItems,
      payload.orchestratorItems,
      payload.metadata,
      payload.cancelledActivities,
    ],
    { subject: { instance }, known: INVALID_LOCK_TOKEN },
  );
}
