import {
  ProviderError,
  decodeWorkItem,
  type FetchedWorkItem,
  type SessionFetchConfig,
  type TagFilter,
} from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readOptionalRow, type RowReader } from '../database/rows.js';
import type { Statement } from '../database/statement.js';

const FETCH_WORK_ITEM: Statement = {
  operation: 'fetch_work_item',
  preparedAs: 'fetch_work',
  sql: (s, claimCommit) =>
    `SELECT f.* FROM ${s}.fetch_work_item($1::bigint, $2::bigint, $3::text, $4::bigint, ` +
    `$5::text[], $6::text) f ${claimCommit}`,
};

/**
 * The procedure's `p_tag_mode` and `p_tag_filter` for a filter; tags sorted, as duroxide-pg.
 * @internal
 */
export function tagArguments(filter: TagFilter): [mode: string, tags: string[]] {
  switch (filter.type) {
    case 'DefaultOnly':
      return ['default_only', []];
    case 'Tags':
      return ['tags', [...filter.tags].sort()];
    case 'DefaultAnd':
      return ['default_and', [...filter.tags].sort()];
    case 'Any':
      return ['any', []];
    case 'None':
      return ['none', []];
  }
}

/**
 * Claims the oldest visible activity the filters allow with `fetch_work_item`, or returns
 * `null`. With `TagFilter.none()` nothing is asked. With a session config, activities of sessions
 * this owner holds, or nobody holds, are eligible too (claiming the session).
 * @throws {ProviderError} permanent when the stored item does not decode.
 */
export async function fetchWorkItem(
  db: ProviderDatabase,
  lockTimeoutMs: number,
  session: SessionFetchConfig | null,
  tagFilter: TagFilter,
): Promise<FetchedWorkItem | null> {
  if (tagFilter.type === 'None') return null;
  const [mode, tags] = tagArguments(tagFilter);
  const rows = await db.query(FETCH_WORK_ITEM, (nowMs) => [
    nowMs,
    lockTimeoutMs,
    session?.ownerId ?? null,
    session?.lockTimeoutMs ?? null,
    tags,
    mode,
  ]);
  const row = readOptionalRow(FETCH_WORK_ITEM.operation, rows);
  if (row === null) return null;
  return decodeFetchedWorkItem(FETCH_WORK_ITEM.operation, row);
}

/**
 * A fetched row (`out_work_item`, `out_lock_token`, `out_attempt_count`) as the contract's item.
 * @throws {ProviderError} permanent when the stored item does not decode.
 * @internal
 */
export function decodeFetchedWorkItem(operation: string, row: RowReader): FetchedWorkItem {
  const lockToken = row.text('out_lock_token');
  try {
    return {
      item: decodeWorkItem(row.text('out_work_item')),
      lockToken,
      attemptCount: row.integer('out_attempt_count'),
    };
  } catch (error) {
    if (ProviderError.isInstance(error)) throw error;
    throw ProviderError.permanent(
      operation,
      `Failed to deserialize worker item: ${String(error)} (lock ${lockToken})`,
      { cause: error },
    );
  }
}
