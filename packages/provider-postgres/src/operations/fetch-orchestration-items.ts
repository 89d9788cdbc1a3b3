import type { DispatcherCapabilityFilter } from '@duro/core';
import type { HistoryCache } from '../history-cache.js';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';
import {
  claimAfterHeldArguments,
  claimVersionRange,
  readClaimedTurn,
  type OrchestrationFetch,
} from './fetch-orchestration-item.js';

const FETCH_ORCHESTRATION_ITEMS: Statement = {
  operation: 'fetch_orchestration_item',
  preparedAs: 'fetch_orchs',
  sql: (s, claimCommit) =>
    `SELECT f.* FROM ${s}.duro_fetch_orchestration_items($1::bigint, $2::bigint, $3::bigint, ` +
    `$4::bigint, $5::text[], $6::bigint[], $7::bigint[], $8::integer) f ` +
    claimCommit,
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
