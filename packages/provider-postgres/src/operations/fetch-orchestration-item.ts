import type {
  DispatcherCapabilityFilter,
  FetchedOrchestrationItem,
  SemverVersion,
} from '@duro/core';
import type { ProviderDatabase } from '../provider-database.js';
import { readOptionalRow } from '../rows.js';
import type { Statement } from '../statement.js';
import { CLAIM_COMMIT_WITHOUT_FLUSH_WAIT } from './claim-commit.js';
import { ackOrchestrationItem } from './ack-orchestration-item.js';
import { buildAckPayload } from './ack-payload.js';
import {
  decodeHistory,
  decodeKvSnapshot,
  decodeMessages,
  joinErrors,
} from './orchestration-item-decoding.js';

const FETCH_ORCHESTRATION_ITEM: Statement = {
  operation: 'fetch_orchestration_item',
  preparedAs: 'fetch_orch',
  sql: (s) =>
    `SELECT f.* FROM ${s}.fetch_orchestration_item($1::bigint, $2::bigint, $3::bigint, $4::bigint) f ` +
    CLAIM_COMMIT_WITHOUT_FLUSH_WAIT,
};

/** The name the procedure gives an instance it knows nothing about (no row, no start item). */
const UNKNOWN_ORCHESTRATION = 'Unknown';

/** A version packed as the procedure compares them: `major * 1e6 + minor * 1e3 + patch`. */
function packVersion(version: SemverVersion): number {
  return version.major * 1_000_000 + version.minor * 1_000 + version.patch;
}

/**
 * What a fetch found: an item, or `orphans-dropped` when the batch held only queue messages for
 * an instance that never started and was acknowledged away (duroxide-pg drops events enqueued
 * before their orchestration started), or nothing.
 * @internal
 */
export type OrchestrationFetch =
  | { readonly kind: 'item'; readonly fetched: FetchedOrchestrationItem }
  | { readonly kind: 'orphans-dropped' }
  | { readonly kind: 'none' };

/**
 * Claims one instance turn with `fetch_orchestration_item`: the lease starts when the instance is
 * claimed (migration 0025), so it is never expired on return however long the call waited.
 * A filter with no version range matches nothing and makes no call; only its first range is used,
 * as in duroxide-pg. An undecodable history (or key-value snapshot) does not fail the fetch: the
 * item comes back with `historyError` set and an empty history, with the lock held, so the
 * runtime can count the attempt and poison the instance.
 * @throws {ProviderError} permanent when the messages cannot be decoded.
 */
export async function fetchOrchestrationItem(
  db: ProviderDatabase,
  lockTimeoutMs: number,
  filter: DispatcherCapabilityFilter | null,
): Promise<OrchestrationFetch> {
  let range: [number, number] | [null, null] = [null, null];
  if (filter !== null) {
    const first = filter.supportedDuroxideVersions[0];
    if (first === undefined) return { kind: 'none' };
    range = [packVersion(first.min), packVersion(first.max)];
  }
  const rows = await db.query(FETCH_ORCHESTRATION_ITEM, (nowMs) => [
    nowMs,
    lockTimeoutMs,
    ...range,
  ]);
  const row = readOptionalRow(FETCH_ORCHESTRATION_ITEM.operation, rows);
  if (row === null) return { kind: 'none' };

  const operation = FETCH_ORCHESTRATION_ITEM.operation;
  const instance = row.text('out_instance_id');
  const lockToken = row.text('out_lock_token');
  const executionId = row.integer('out_execution_id');
  const orchestrationName = row.text('out_orchestration_name');
  const messages = decodeMessages(operation, instance, row.json('out_messages'));
  const history = decodeHistory(row.json('out_history'));
  const kvSnapshot = decodeKvSnapshot(row.json('out_kv_snapshot'));
  const historyError = joinErrors(history.error, kvSnapshot.error);

  if (
    historyError === null &&
    orchestrationName === UNKNOWN_ORCHESTRATION &&
    history.events.length === 0 &&
    messages.every((message) => message.type === 'QueueMessage')
  ) {
    await ackOrchestrationItem(
      db,
      lockToken,
      executionId,
      buildAckPayload([], [], [], {}, []),
      instance,
    );
    return { kind: 'orphans-dropped' };
  }

  return {
    kind: 'item',
    fetched: {
      item: {
        instance,
        orchestrationName,
        executionId,
        version: row.text('out_orchestration_version'),
        history: historyError === null ? history.events : [],
        messages,
        historyError,
        kvSnapshot: historyError === null ? kvSnapshot.entries : new Map(),
      },
      lockToken,
      attemptCount: row.integer('out_attempt_count'),
    },
  };
}
