import {
  ProviderError,
  requireDistinctLockTokens,
  workItemInstance,
  type DispatcherCapabilityFilter,
  type WorkItemAck,
  type WorkItemAckOutcome,
} from '@duro/core';
import type { HistoryCache } from '../history-cache.js';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';
import { encodeWorkItemFor } from './enqueue-orchestrator-work.js';
import {
  claimAfterHeldArguments,
  claimVersionRange,
  readClaimedTurn,
  type OrchestrationFetch,
} from './fetch-orchestration-item.js';

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

// duro migration 16: the acknowledgement above, then a claim of each named instance's turn as a
// batch fetch claims one (an instance held elsewhere, or with nothing due, gives no row). A row
// per acknowledged lock (out_acked_lock_token), then one per claimed turn. It carries no
// claim-commit clause: the acknowledgement's commit stays durable.
const ACK_WORK_ITEMS_CLAIMING_TURNS: Statement = {
  operation: 'ack_work_items',
  preparedAs: 'ack_works_claiming',
  sql: (s) =>
    `SELECT a.* FROM ${s}.duro_ack_work_items_claiming_turns($1::text[], $2::text[], $3::text[], ` +
    `$4::bigint, $5::text[], $6::bigint, $7::bigint, $8::bigint, $9::text[], $10::bigint[], ` +
    `$11::bigint[]) a`,
};

/** The turns an acknowledgement is to claim, for a fetch of turns that waits. */
export interface TurnsToClaim {
  /** The most turns to claim: those of the first instances the completions go to. */
  readonly maxTurns: number;
  readonly lockTimeoutMs: number;
  readonly filter: DispatcherCapabilityFilter | null;
  /** The histories the provider holds, which the claim does not send again. */
  readonly cache: HistoryCache | null;
}

/** Turns a claim returned, decoded. */
export type ClaimedTurns = Exclude<OrchestrationFetch, { kind: 'none' }>[];

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
  const { outcomes } = await acknowledge(acks, instanceOf, async (sent) => {
    const rows = await db.query(ACK_WORK_ITEMS, (nowMs) => [...ackArguments(sent), nowMs]);
    const acked = readRows(ACK_WORK_ITEMS.operation, rows).map((row) => row.text('lock_token'));
    return { acked, turns: [] };
  });
  return outcomes;
}

/**
 * Acknowledges as {@link ackWorkItems} does and, in the same statement and commit (duro
 * migration 16), claims the turns of the instances the completions go to (the first
 * `claim.maxTurns` of them) that nobody holds and that have work due, each as a batch fetch claims
 * one.
 * @returns the outcomes, in the order of `acks`, and the turns claimed, in the order asked.
 */
export async function ackWorkItemsClaimingTurns(
  db: ProviderDatabase,
  acks: readonly WorkItemAck[],
  instanceOf: (lockToken: string) => string | undefined,
  claim: TurnsToClaim,
): Promise<{ outcomes: WorkItemAckOutcome[]; turns: ClaimedTurns }> {
  const range = claimVersionRange(claim.filter);
  const held = claim.cache?.held() ?? { instanceIds: [], executionIds: [], lastEventIds: [] };
  return acknowledge(acks, instanceOf, async (sent) => {
    const woken = new Set(sent.flatMap(({ instance }) => (instance === null ? [] : [instance])));
    const instances = range === null ? [] : [...woken].slice(0, claim.maxTurns);
    const rows = await db.query(ACK_WORK_ITEMS_CLAIMING_TURNS, (nowMs) => {
      const [, ...claimArguments] = claimAfterHeldArguments(
        nowMs,
        claim.lockTimeoutMs,
        range ?? [null, null],
        held,
      );
      return [...ackArguments(sent), nowMs, instances, ...claimArguments];
    });
    const acked: string[] = [];
    const turns: ClaimedTurns = [];
    for (const row of readRows(ACK_WORK_ITEMS_CLAIMING_TURNS.operation, rows)) {
      const lockToken = row.optionalText('out_acked_lock_token');
      if (lockToken === null) turns.push(await readClaimedTurn(db, row, claim.cache));
      else acked.push(lockToken);
    }
    return { acked, turns };
  });
}

function ackArguments(sent: readonly Sendable[]): unknown[] {
  return [
    sent.map((entry) => entry.lockToken),
    sent.map((entry) => entry.instance),
    sent.map((entry) => entry.text),
  ];
}

/**
 * Prepares `acks`, sends those that can be sent with `send` (which returns the lock tokens it
 * acknowledged and any turns it claimed), and says how each fared.
 */
async function acknowledge(
  acks: readonly WorkItemAck[],
  instanceOf: (lockToken: string) => string | undefined,
  send: (sent: readonly Sendable[]) => Promise<{ acked: string[]; turns: ClaimedTurns }>,
): Promise<{ outcomes: WorkItemAckOutcome[]; turns: ClaimedTurns }> {
  const operation = ACK_WORK_ITEMS.operation;
  requireDistinctLockTokens(operation, acks);
  const prepared = acks.map((ack) => prepare(operation, ack));
  const sent = prepared.filter((entry): entry is Sendable => !ProviderError.isInstance(entry));
  const { acked, turns } =
    sent.length > 0 ? await send(sent) : { acked: [], turns: [] as ClaimedTurns };
  const acknowledged = new Set(acked);
  const outcomes = prepared.map((entry): WorkItemAckOutcome => {
    if (ProviderError.isInstance(entry)) return { ok: false, error: entry };
    if (acknowledged.has(entry.lockToken)) return { ok: true };
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
  return { outcomes, turns };
}
