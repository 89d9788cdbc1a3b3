import type { DispatcherCapabilityFilter } from '@duro/core';
import type { HistoryCache } from '../history-cache.js';
import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';
import type { OrchestrationFetch } from './fetch-orchestration-item.js';
import { claimTurnsAfterHeld } from './fetch-orchestration-items.js';

// Each named instance is claimed as one of a batch fetch's candidates is (duro migration 9's
// claim of one instance); an instance another session holds, or with nothing due, gives no row.
// It carries no claim-commit clause: it runs in an activity acknowledgement's transaction, whose
// commit must stay durable.
const CLAIM_INSTANCE_TURNS: Statement = {
  operation: 'fetch_orchestration_item',
  preparedAs: 'claim_instance_turns',
  sql: (s) =>
    `SELECT c.* FROM unnest($8::text[]) AS t(instance_id) CROSS JOIN LATERAL ` +
    `${s}.duro_claim_orchestration_instance(t.instance_id, $1::bigint, $2::bigint, $3::bigint, ` +
    `$4::bigint, $5::text[], $6::bigint[], $7::bigint[]) c`,
};

/**
 * Claims the turns of the named instances that nobody holds and that have work due, each as
 * `fetchOrchestrationItems` claims one, in one statement and in the order given, naming the
 * histories `cache` holds.
 * @returns one entry per claimed instance.
 */
export async function claimInstanceTurns(
  db: ProviderDatabase,
  instances: readonly string[],
  lockTimeoutMs: number,
  filter: DispatcherCapabilityFilter | null,
  cache: HistoryCache | null,
): Promise<Exclude<OrchestrationFetch, { kind: 'none' }>[]> {
  if (instances.length === 0) return [];
  return claimTurnsAfterHeld(db, CLAIM_INSTANCE_TURNS, instances, lockTimeoutMs, filter, cache);
}
