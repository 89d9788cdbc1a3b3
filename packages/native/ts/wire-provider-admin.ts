import type { ProviderAdmin } from '@duro/core';
import type { WireProviderAdmin } from '../index.js';
import { eventsToWire, instanceFilterFromWire, pruneOptionsFromWire } from './wire-shapes.js';

/**
 * Wraps a duro {@link ProviderAdmin} as the management object the Rust side calls. Used by
 * {@link toWireProvider}; every method forwards as is, the composite ones (`getInstanceTree`,
 * `deleteInstance`) included, so the duro implementation of each is what duroxide exercises.
 */
export function toWireProviderAdmin(admin: ProviderAdmin): WireProviderAdmin {
  return {
    listInstances: () => admin.listInstances(),
    listInstancesByStatus: (status) => admin.listInstancesByStatus(status),
    listExecutions: (instance) => admin.listExecutions(instance),
    readHistoryWithExecutionId: async ({ instance, executionId }) =>
      eventsToWire(await admin.readHistoryWithExecutionId(instance, executionId)),
    readHistory: async (instance) => eventsToWire(await admin.readHistory(instance)),
    latestExecutionId: (instance) => admin.latestExecutionId(instance),
    getInstanceInfo: (instance) => admin.getInstanceInfo(instance),
    getExecutionInfo: ({ instance, executionId }) => admin.getExecutionInfo(instance, executionId),
    getSystemMetrics: () => admin.getSystemMetrics(),
    getQueueDepths: () => admin.getQueueDepths(),
    listChildren: (instanceId) => admin.listChildren(instanceId),
    getParentId: (instanceId) => admin.getParentId(instanceId),
    deleteInstancesAtomic: ({ ids, force }) => admin.deleteInstancesAtomic(ids, force),
    getInstanceTree: async (instanceId) => {
      const tree = await admin.getInstanceTree(instanceId);
      return { rootId: tree.rootId, allIds: [...tree.allIds] };
    },
    deleteInstance: ({ instanceId, force }) => admin.deleteInstance(instanceId, force),
    deleteInstanceBulk: (filter) => admin.deleteInstanceBulk(instanceFilterFromWire(filter)),
    pruneExecutions: ({ instanceId, options }) =>
      admin.pruneExecutions(instanceId, pruneOptionsFromWire(options)),
    pruneExecutionsBulk: ({ filter, options }) =>
      admin.pruneExecutionsBulk(instanceFilterFromWire(filter), pruneOptionsFromWire(options)),
  };
}
