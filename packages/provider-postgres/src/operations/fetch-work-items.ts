import type { FetchedWorkItem, SessionFetchConfig, TagFilter } from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';
import { decodeFetchedWorkItem, tagArguments } from './fetch-work-item.js';

/** Which rows each kind of candidate is, and the order its index (duro 0007) gives them in. */
const CANDIDATE_KINDS = {
  // From duro_idx_worker_ready, in the queue's order.
  unlocked: {
    condition: 'q.lock_token IS NULL AND q.visible_at <= to_timestamp($1::bigint / 1000.0)',
    order: 'q.id',
  },
  // From duro_idx_worker_lease_expiry; a leased row was visible when it was claimed.
  lapsed: {
    condition: 'q.lock_token IS NOT NULL AND q.locked_until <= $1::bigint',
    order: 'q.locked_until',
  },
} as const;

/**
 * The rows of one kind the batch may take, oldest first, row-locked: the kind's condition, the
 * tag filter, and session routing. Its index is read from the head and only as far as the batch
 * needs, which marks the entries of rows acknowledged since the last vacuum so that later
 * fetches skip them.
 */
function candidateRows(s: string, kind: keyof typeof CANDIDATE_KINDS): string {
  const { condition, order } = CANDIDATE_KINDS[kind];
  return `
    SELECT q.id, q.session_id, COALESCE(s.worker_id = $3::text, FALSE) AS owned
    FROM ${s}.worker_queue q
    LEFT JOIN ${s}.sessions s ON s.session_id = q.session_id AND s.locked_until > $1::bigint
    WHERE ${condition}
      AND (q.session_id IS NULL
           OR ($3::text IS NOT NULL AND (s.session_id IS NULL OR s.worker_id = $3::text)))
      AND CASE $6::text
              WHEN 'default_only' THEN q.tag IS NULL
              WHEN 'tags' THEN q.tag = ANY ($5::text[])
              WHEN 'default_and' THEN q.tag IS NULL OR q.tag = ANY ($5::text[])
              WHEN 'any' THEN TRUE
              ELSE FALSE
          END
    ORDER BY ${order}
    LIMIT $7::integer
    FOR UPDATE OF q SKIP LOCKED`;
}

/**
 * One statement claims the batch, judged as `fetch_work_item` judges one row: the oldest $7 of
 * the unlocked and the lapsed candidates. Of the sessions nobody holds, only the oldest $8 are
 * claimed; a session upsert that loses to another owner leaves its rows alone. Candidate rows
 * that end up unclaimed are only row-locked until the statement ends. The claimed rows are
 * updated by id (`= ANY`), which reads them through the primary key whatever the table's size.
 * Exported for the test of its plan.
 * @internal
 */
export const FETCH_WORK_ITEMS: Statement = {
  operation: 'fetch_work_items',
  preparedAs: 'fetch_works',
  sql: (s, claimCommit) => `
WITH unlocked_candidates AS (${candidateRows(s, 'unlocked')}
),
lapsed_candidates AS (${candidateRows(s, 'lapsed')}
),
candidates AS (
    SELECT * FROM unlocked_candidates
    UNION ALL
    SELECT * FROM lapsed_candidates
    ORDER BY id
    LIMIT $7::integer
),
new_sessions AS (
    SELECT c.session_id FROM candidates c
    WHERE c.session_id IS NOT NULL AND NOT c.owned
    GROUP BY c.session_id
    ORDER BY min(c.id)
    LIMIT $8::integer
),
wanted_sessions AS (
    SELECT c.session_id FROM candidates c WHERE c.owned
    UNION
    SELECT n.session_id FROM new_sessions n
),
claimed_sessions AS (
    INSERT INTO ${s}.sessions AS s (session_id, worker_id, locked_until, last_activity_at)
    SELECT w.session_id, $3::text, $1::bigint + $4::bigint, $1::bigint
    FROM wanted_sessions w
    ORDER BY w.session_id
    ON CONFLICT (session_id) DO UPDATE
    SET worker_id = EXCLUDED.worker_id,
        locked_until = EXCLUDED.locked_until,
        last_activity_at = EXCLUDED.last_activity_at
    WHERE s.locked_until <= $1::bigint OR s.worker_id = $3::text
    RETURNING s.session_id
),
claimable AS (
    SELECT c.id FROM candidates c
    WHERE c.session_id IS NULL OR c.session_id IN (SELECT cs.session_id FROM claimed_sessions cs)
),
claimed AS (
    UPDATE ${s}.worker_queue q
    SET lock_token = 'lock_' || gen_random_uuid()::text,
        locked_until = $1::bigint + $2::bigint,
        attempt_count = q.attempt_count + 1
    WHERE q.id = ANY (ARRAY(SELECT c.id FROM claimable c))
    RETURNING q.id, q.work_item, q.lock_token, q.attempt_count
)
SELECT work_item AS out_work_item, lock_token AS out_lock_token, attempt_count AS out_attempt_count
FROM claimed ${claimCommit}
ORDER BY id`,
};

/**
 * Claims up to `maxItems` of the oldest visible activities the filters allow, each with its own
 * lock token, lease and attempt, in one statement; at most `maxNewSessions` sessions this owner
 * does not hold are claimed with them. Returns `[]` when there is none.
 * @throws {ProviderError} permanent when a stored item does not decode (the batch's locks then
 * lapse after `lockTimeoutMs`, and its items are delivered again).
 */
export async function fetchWorkItems(
  db: ProviderDatabase,
  lockTimeoutMs: number,
  session: SessionFetchConfig | null,
  tagFilter: TagFilter,
  maxItems: number,
  maxNewSessions: number,
): Promise<FetchedWorkItem[]> {
  if (tagFilter.type === 'None') return [];
  const [mode, tags] = tagArguments(tagFilter);
  const rows = await db.query(FETCH_WORK_ITEMS, (nowMs) => [
    nowMs,
    lockTimeoutMs,
    session?.ownerId ?? null,
    session?.lockTimeoutMs ?? lockTimeoutMs,
    tags,
    mode,
    maxItems,
    session === null ? 0 : maxNewSessions,
  ]);
  return readRows(FETCH_WORK_ITEMS.operation, rows).map((row) =>
    decodeFetchedWorkItem(FETCH_WORK_ITEMS.operation, row),
  );
}
