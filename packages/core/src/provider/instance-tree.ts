import type { DeleteInstanceResult, InstanceTree } from './management.js';
import type { ProviderAdmin } from './provider-admin.js';
import { ProviderError } from './provider-error.js';

/**
 * Collects an instance's tree by asking for children level by level: duroxide's default
 * `get_instance_tree`, for providers without a recursive query.
 */
export async function walkInstanceTree(
  admin: Pick<ProviderAdmin, 'listChildren'>,
  instanceId: string,
): Promise<InstanceTree> {
  const allIds: string[] = [];
  const pending = [instanceId];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    allIds.push(next);
    pending.push(...(await admin.listChildren(next)));
  }
  return { rootId: instanceId, allIds };
}

/**
 * Deletes a root instance and its whole tree atomically: duroxide's default `delete_instance`.
 * @throws {ProviderError} (permanent) when the instance is a sub-orchestration.
 */
export async function deleteInstanceTree(
  admin: Pick<ProviderAdmin, 'getParentId' | 'getInstanceTree' | 'deleteInstancesAtomic'>,
  instanceId: string,
  force: boolean,
): Promise<DeleteInstanceResult> {
  if ((await admin.getParentId(instanceId)) !== null) {
    throw ProviderError.permanent(
      'delete_instance',
      `Cannot delete sub-orchestration ${instanceId} directly. Delete root instance instead.`,
    );
  }
  const tree = await admin.getInstanceTree(instanceId);
  return admin.deleteInstancesAtomic(tree.allIds, force);
}
