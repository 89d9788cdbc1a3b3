import {
  ProviderError,
  type DispatcherCapabilityFilter,
  type Event,
  type FetchedOrchestrationItem,
  type SemverVersion,
} from '@duro/core';
import type { HeldHistories, HistoryCache } from '../history-cache.js';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readOptionalRow, type RowReader } from '../database/rows.js';
import type { Statement } from '../database/statement.js';
import { ackOrchestrationItem } from './ack-orchestration-item.js';
import { buildAckPayload } from './ack-payload.js';
import { fetchHistoryWithExecution } from './fetch-history-with-execution.js';
import {
  decodeHistory,
  decodeKvSnapshot,
  decodeMessages,
  joinErrors,
  type DecodedHistory,
} from './orchestration-item-decoding.js';

const FETCH_ORCHESTRATION_ITEM: Statement = {
  operation: 'fetch_orchestration_item',
  preparedAs: 'fetch_orch',
  sql: (s, claimCommit) =>
    `SELECT f.* FROM ${s}.fetch_orchestration_item($1::bigint, $2::bigint, $3::bigint, $4::bigint) f ` +
    claimCommit,
};

/** The same claim, sending only the events after those the caller holds (duro migration 2). */
const FETCH_ORCHESTRATION_ITEM_AFTER_HELD: Statement = {
  operation: 'fetch_orchestration_item',
  preparedAs: 'fetch_orch_tail',
  sql: (s, claimCommit) =>
    `SELECT f.* FROM ${s}.duro_fetch_orchestration_item($1::bigint, $2::bigint, $3::bigint, ` +
    `$4::bigint, $5::text[], $6::bigint[], $7::bigint[]) f ` +
    claimCommit,
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
 *
 * With a `cache`, the fetch names the histories it holds and PostgreSQL sends only the events
 * after them; a held history the server's anchor event does not confirm is read again whole.
 * @throws {ProviderError} permanent when the messages cannot be decoded.
 */
export async function fetchOrchestrationItem(
  db: ProviderDatabase,
  lockTimeoutMs: number,
  filter: DispatcherCapabilityFilter | null,
  cache: HistoryCache | null,
): Promise<OrchestrationFetch> {
  const range = claimVersionRange(filter);
  if (range === null) return { kind: 'none' };
  const held = cache?.held();
  const rows =
    held === undefined
      ? await db.query(FETCH_ORCHESTRATION_ITEM, (nowMs) => [nowMs, lockTimeoutMs, ...range])
      : await db.query(FETCH_ORCHESTRATION_ITEM_AFTER_HELD, (nowMs) =>
          claimAfterHeldArguments(nowMs, lockTimeoutMs, range, held),
        );
  const row = readOptionalRow(FETCH_ORCHESTRATION_ITEM.operation, rows);
  if (row === null) return { kind: 'none' };
  return readClaimedTurn(db, row, cache);
}

/**
 * The leading arguments of `duro_fetch_orchestration_item` and `duro_fetch_orchestration_items`:
 * the caller's clock, the lock timeout, the version range and the held histories.
 * @internal
 */
export function claimAfterHeldArguments(
  nowMs: number,
  lockTimeoutMs: number,
  range: readonly [number, number] | readonly [null, null],
  held: HeldHistories,
): unknown[] {
  return [nowMs, lockTimeoutMs, ...range, held.instanceIds, held.executionIds, held.lastEventIds];
}

/**
 * The versions a claim accepts, packed as the procedures take them: both `null` for a `null`
 * filter (any version). `null` for a filter with no range, which matches nothing; only the
 * first range is used, as in duroxide-pg.
 * @internal
 */
export function claimVersionRange(
  filter: DispatcherCapabilityFilter | null,
): [number, number] | [null, null] | null {
  if (filter === null) return [null, null];
  const first = filter.supportedDuroxideVersions[0];
  if (first === undefined) return null;
  return [packVersion(first.min), packVersion(first.max)];
}

/**
 * Decodes one claimed turn, a row of `fetch_orchestration_item` or its duro counterparts. A turn
 * of only queue messages for an instance that never started is acknowledged away at once.
 * @internal
 */
export async function readClaimedTurn(
  db: ProviderDatabase,
  row: RowReader,
  cache: HistoryCache | null,
): Promise<Exclude<OrchestrationFetch, { kind: 'none' }>> {
  const operation = FETCH_ORCHESTRATION_ITEM.operation;
  const instance = row.text('out_instance_id');
  const lockToken = row.text('out_lock_token');
  const executionId = row.integer('out_execution_id');
  const orchestrationName = row.text('out_orchestration_name');
  const messages = decodeMessages(operation, instance, row.json('out_messages'));
  const history =
    cache === null
      ? decodeHistory(row.json('out_history'))
      : await completeHistory(db, cache, row, instance, executionId);
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

  if (historyError === null) cache?.claimed(lockToken, instance, executionId, history.events);
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

/**
 * The claimed execution's whole history from a fetch that sent only what follows a held prefix
 * (`out_history_after_event_id` set), or the whole history as sent. A prefix the cache cannot
 * confirm is replaced by reading the execution's history again.
 */
async function completeHistory(
  db: ProviderDatabase,
  cache: HistoryCache,
  row: RowReader,
  instance: string,
  executionId: number,
): Promise<DecodedHistory> {
  const sent = decodeHistory(row.json('out_history'));
  const afterEventId = row.optionalInteger('out_history_after_event_id');
  if (afterEventId === null || sent.error !== null) return sent;
  const anchor = row.json('out_history_anchor');
  const events = cache.assemble(instance, executionId, afterEventId, anchor, sent.events);
  if (events !== null) return { events, error: null };
  return readWholeHistory(db, instance, executionId);
}

async function readWholeHistory(
  db: ProviderDatabase,
  instance: string,
  executionId: number,
): Promise<DecodedHistory> {
  let events: Event[];
  try {
    events = await fetchHistoryWithExecution(db, instance, executionId);
  } catch (error) {
    if (!ProviderError.isInstance(error) || error.retryable) throw error;
    return { events: [], error: `Failed to deserialize history: ${error.message}` };
  }
  return { events, error: null };
}
