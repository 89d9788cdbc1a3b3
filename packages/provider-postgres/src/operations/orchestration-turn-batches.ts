import {
  ProviderError,
  requireDistinctLockTokens,
  type DispatcherCapabilityFilter,
  type OrchestrationItemAck,
  type OrchestrationItemAckOutcome,
} from '@duro/core';
import { toProviderError } from '../errors.js';
import type { HistoryCache } from '../history-cache.js';
import type { ProviderDatabase } from '../provider-database.js';
import { readRows } from '../rows.js';
import type { Statement } from '../statement.js';
import { INVALID_LOCK_TOKEN } from './ack-orchestration-item.js';
import { ackPayloadOf, type AckPayload } from './ack-payload.js';
import { CLAIM_COMMIT_WITHOUT_FLUSH_WAIT } from './claim-commit.js';
import {
  claimAfterHeldArguments,
  claimVersionRange,
  readClaimedTurn,
  type OrchestrationFetch,
} from './fetch-orchestration-item.js';

const FETCH_ORCHESTRATION_ITEMS: Statement = {
  operation: 'fetch_orchestration_item',
  preparedAs: 'fetch_orchs',
  sql: (s) =>
    `SELECT f.* FROM ${s}.duro_fetch_orchestration_items($1::bigint, $2::bigint, $3::bigint, ` +
    `$4::bigint, $5::text[], $6::bigint[], $7::bigint[], $8::integer) f ` +
    CLAIM_COMMIT_WITHOUT_FLUSH_WAIT,
};

const ACK_ORCHESTRATION_ITEMS: Statement = {
  operation: 'ack_orchestration_item',
  preparedAs: 'ack_orchs',
  sql: (s) =>
    `SELECT a.* FROM ${s}.duro_ack_orchestration_items($1::text[], $2::bigint, $3::bigint[], ` +
    `$4::jsonb, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb) a`,
};

/**
 * Claims up to `maxItems` instance turns in one statement with `duro_fetch_orchestration_items`
 * (duro migration 3), each as `fetchOrchestrationItem` claims one, naming the histories `cache`
 * holds. The claims commit together, before any row is decoded.
 * @returns one entry per claimed instance, in claim order (none when nothing was ready).
 */
export async function fetchOrchestrationItems(
  db: ProviderDatabase,
  lockTimeoutMs: number,
  filter: DispatcherCapabilityFilter | null,
  cache: HistoryCache | null,
  maxItems: number,
): Promise<Exclude<OrchestrationFetch, { kind: 'none' }>[]> {
  const range = claimVersionRange(filter);
  if (range === null) return [];
  const held = cache?.held() ?? { instanceIds: [], executionIds: [], lastEventIds: [] };
  const rows = await db.query(FETCH_ORCHESTRATION_ITEMS, (nowMs) => [
    ...claimAfterHeldArguments(nowMs, lockTimeoutMs, range, held),
    maxItems,
  ]);
  const claimed = [];
  for (const row of readRows(FETCH_ORCHESTRATION_ITEMS.operation, rows)) {
    claimed.push(await readClaimedTurn(db, row, cache));
  }
  return claimed;
}

/** One turn ready for the statement. */
interface Sendable {
  readonly ack: OrchestrationItemAck;
  readonly payload: AckPayload;
}
/** A turn ready for the statement, or the reason it cannot be sent. */
type Prepared = Sendable | ProviderError;

/** The jsonb array of one payload field across the turns sent. */
function jsonArray(sent: readonly Sendable[], field: keyof AckPayload): string {
  return `[${sent.map((entry) => entry.payload[field]).join(',')}]`;
}

/**
 * Commits several turns in one statement with `duro_ack_orchestration_items` (duro migration 3),
 * each as `ackOrchestrationItem` commits one, in its own subtransaction. The outcomes come back
 * in the order of `acks`. A turn whose lock is unknown or expired fails alone with "Invalid lock
 * token"; one that cannot be encoded fails alone and is not sent.
 * @throws {ProviderError} permanent when a lock token appears twice; whatever the statement
 * failed with as a whole (nothing was then committed).
 */
export async function ackOrchestrationItems(
  db: ProviderDatabase,
  acks: readonly OrchestrationItemAck[],
  instanceOf: (lockToken: string) => string | undefined,
): Promise<OrchestrationItemAckOutcome[]> {
  const operation = ACK_ORCHESTRATION_ITEMS.operation;
  requireDistinctLockTokens(operation, acks);
  const prepared = acks.map((ack): Prepared => {
    try {
      return { ack, payload: ackPayloadOf(ack, instanceOf(ack.lockToken)) };
    } catch (error) {
      if (ProviderError.isInstance(error)) return error;
      throw error;
    }
  });
  const sent = prepared.filter((entry): entry is Sendable => !ProviderError.isInstance(entry));
  const failures = new Map<number, ProviderError>();
  if (sent.length > 0) {
    const rows = await db.query(ACK_ORCHESTRATION_ITEMS, (nowMs) => [
      sent.map((entry) => entry.ack.lockToken),
      nowMs,
      sent.map((entry) => entry.ack.executionId),
      jsonArray(sent, 'historyDelta'),
      jsonArray(sent, 'workerItems'),
      jsonArray(sent, 'orchestratorItems'),
      jsonArray(sent, 'metadata'),
      jsonArray(sent, 'cancelledActivities'),
    ]);
    const outcomes = readRows(operation, rows);
    if (outcomes.length !== sent.length) {
      throw ProviderError.permanent(
        operation,
        `unexpected result from the database: ${outcomes.length} outcomes for ${sent.length} turns`,
      );
    }
    for (const row of outcomes) {
      const index = row.integer('out_position') - 1;
      const code = row.optionalText('out_error_code');
      if (code === null) continue;
      const lockToken = sent[index]?.ack.lockToken ?? '';
      // The procedure caught the turn's error; rebuilt as pg reports one (a SQLSTATE and a
      // severity), it is classified and worded exactly as a single ack's failure would be.
      const failure = Object.assign(new Error(row.text('out_error_message')), {
        code,
        severity: 'ERROR',
      });
      failures.set(
        index,
        toProviderError(
          operation,
          failure,
          { instance: instanceOf(lockToken) },
          INVALID_LOCK_TOKEN,
        ),
      );
    }
  }
  let position = 0;
  return prepared.map((entry): OrchestrationItemAckOutcome => {
    if (ProviderError.isInstance(entry)) return { ok: false, error: entry };
    const error = failures.get(position++);
    return error === undefined ? { ok: true } : { ok: false, error };
  });
}
