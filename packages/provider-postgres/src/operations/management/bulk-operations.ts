import {
  walkInstanceTree,
  type DeleteInstanceResult,
  type InstanceFilter,
  type PruneOptions,
  type PruneResult,
} from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { deleteInstancesAtomic } from './delete-instances-atomic.js';
import { listChildren } from './list-children.js';
import { pruneExecutions } from './prune-executions.js';
import { selectPrunable, selectTerminalRoots } from './select-instances.js';

/**
 * Deletes every terminal root instance the filter selects, each with its whole tree in its own
 * transaction (forced, since the children of a finished root may still be running), as
 * duroxide-pg's `delete_instance_bulk`. Running roots are skipped, not refused.
 */
export async function deleteInstanceBulk(
  db: ProviderDatabase,
  filter: InstanceFilter,
): Promise<DeleteInstanceResult> {
  const total = {
    instancesDeleted: 0,
    executionsDeleted: 0,
    eventsDeleted: 0,
    queueMessagesDeleted: 0,
  };
  const children = { listChildren: (id: string) => listChildren(db, id) };
  for (const root of await selectTerminalRoots(db, filter)) {
    const tree = await walkInstanceTree(children, root);
    const deleted = await deleteInstancesAtomic(db, tree.allIds, true);
    total.instancesDeleted += deleted.instancesDeleted;
    total.executionsDeleted += deleted.executionsDeleted;
    total.eventsDeleted += deleted.eventsDeleted;
    total.queueMessagesDeleted += deleted.queueMessagesDeleted;
  }
  return total;
}

/** Prunes every instance the filter selects, running ones included, one transaction each. */
export async function pruneExecutionsBulk(
  db: ProviderDatabase,
  filter: InstanceFilter,
  options: PruneOptions,
): Promise<PruneResult> {
  const total = { instancesProcessed: 0, executionsDeleted: 0, eventsDeleted: 0 };
  for (const instance of await selectPrunable(db, filter)) {
    const pruned = await pruneExecutions(db, instance, options);
    total.instancesProcessed += pruned.instancesProcessed;
    total.executionsDeleted += pruned.executionsDeleted;
    total.eventsDeleted += pruned.eventsDeleted;
  }
  return total;
}
