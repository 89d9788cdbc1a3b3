import { randomUUID } from 'node:crypto';
import {
  ProviderError,
  activityClaimTakes,
  requireDistinctLockTokens,
  type ActivityClaim,
  type FetchedWorkItem,
  type OrchestrationItemAck,
  type OrchestrationItemAckOutcome,
} from '@duro/core';
import { toProviderError } from '../database/errors.js';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';
import { INVALID_LOCK_TOKEN } from './ack-orchestration-item.js';
import { ackPayloadOf, type AckPayload } from './ack-payload.js';

const ACK_ORCHESTRATION_ITEMS: Statement = {
  operation: 'ack_orchestration_item',
  preparedAs: 'ack_orchs',
  sql: (s) =>
    `SELECT a.* FROM ${s}.duro_ack_orchestration_items($1::text[], $2::bigint, $3::bigint[], ` +
    `$4::jsonb, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb) a`,
};

const ACK_ORCHESTRATION_ITEMS_CLAIMING: Statement = {
  operation: 'ack_orchestration_item',
  preparedAs: 'ack_orchs_claiming',
  sql: (s) =>
    `SELECT a.* FROM ${s}.duro_ack_orchestration_items_claiming($1::text[], $2::bigint, ` +
    `$3::bigint[], $4::jsonb, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb, $9::jsonb, $10::bigint) a`,
};

/** One turn ready for the statement. */
interface Sendable {
  readonly ack: OrchestrationItemAck;
  readonly payload: AckPayload;
}
/** A turn ready for the statement, or the reason it cannot be sent. */
type Prepared = Sendable | ProviderError;

/** The activities a call claims: per turn sent, a lock token or null per worker item. */
interface ActivityClaims {
  readonly lockTokens: readonly (readonly (string | null)[])[];
  readonly leaseMs: number;
  /** Per turn sent, the activities written claimed if the batch goes merged. */
  readonly claimed: readonly (readonly FetchedWorkItem[])[];
}

/**
 * Picks, in the order the turns schedule them, up to `claim.maxItems` activities without a
 * session that the claim's tag filter takes, and gives each a lock token of its own.
 */
function activityClaims(sent: readonly Sendable[], claim: ActivityClaim): ActivityClaims {
  let left = claim.maxItems;
  const claimed: FetchedWorkItem[][] = [];
  const lockTokens = sent.map(({ ack }) => {
    const ownClaims: FetchedWorkItem[] = [];
    claimed.push(ownClaims);
    return ack.workerItems.map((item) => {
      if (left === 0 || !activityClaimTakes(claim, item)) return null;
      left -= 1;
      const lockToken = `lock_${randomUUID()}`;
      ownClaims.push({ item, lockToken, attemptCount: 1 });
      return lockToken;
    });
  });
  return { lockTokens, leaseMs: claim.lockTimeoutMs, claimed };
}

/** The jsonb array of one payload field across the turns sent. */
function jsonArray(sent: readonly Sendable[], field: keyof AckPayload): string {
  return `[${sent.map((entry) => entry.payload[field]).join(',')}]`;
}

/**
 * Commits several turns in one statement with `duro_ack_orchestration_items` (duro migration 3),
 * each as `ackOrchestrationItem` commits one, in its own subtransaction. The outcomes come back
 * in the order of `acks`. A turn whose lock is unknown or expired fails alone with "Invalid lock
 * token"; one that cannot be encoded fails alone and is not sent. With a `claim` (on duro
 * migration 10), the activities it takes are written claimed when the batch commits merged, and
 * each committed turn's outcome carries its own.
 * @throws {ProviderError} permanent when a lock token appears twice; whatever the statement
 * failed with as a whole (nothing was then committed).
 */
export async function ackOrchestrationItems(
  db: ProviderDatabase,
  acks: readonly OrchestrationItemAck[],
  instanceOf: (lockToken: string) => string | undefined,
  claim: ActivityClaim | null,
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
  const claims = claim === null ? null : activityClaims(sent, claim);
  let claimsWritten = false;
  if (sent.length > 0) {
    const turnArguments = (nowMs: number) => [
      sent.map((entry) => entry.ack.lockToken),
      nowMs,
      sent.map((entry) => entry.ack.executionId),
      jsonArray(sent, 'historyDelta'),
      jsonArray(sent, 'workerItems'),
      jsonArray(sent, 'orchestratorItems'),
      jsonArray(sent, 'metadata'),
      jsonArray(sent, 'cancelledActivities'),
    ];
    const rows =
      claims === null
        ? await db.query(ACK_ORCHESTRATION_ITEMS, turnArguments)
        : await db.query(ACK_ORCHESTRATION_ITEMS_CLAIMING, (nowMs) => [
            ...turnArguments(nowMs),
            JSON.stringify(claims.lockTokens),
            claims.leaseMs,
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
      if (claims !== null) claimsWritten = row.boolean('out_activities_claimed');
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
    const index = position++;
    const error = failures.get(index);
    if (error !== undefined) return { ok: false, error };
    const claimedActivities = claimsWritten ? claims?.claimed[index] : undefined;
    return claimedActivities === undefined ? { ok: true } : { ok: true, claimedActivities };
  });
}
