import { decodeWorkItem, encodeWorkItem, type Provider } from '@duro/core';
import type { WireProvider } from '../index.js';
import { toWireProviderAdmin } from './wire-provider-admin.js';
import {
  capabilityFilterFromWire,
  eventsFromWire,
  eventsToWire,
  fetchedOrchestrationItemToWire,
  metadataFromWire,
  tagFilterFromWire,
} from './wire-shapes.js';

/**
 * Wraps any duro {@link Provider} (and its `ProviderAdmin`, when it has one) as the object the
 * Rust side of `@duro/native` calls: duroxide's `Provider` trait then runs on it, decoding what
 * it returns with duroxide's serde types. A `ProviderError` the provider throws reaches Rust with
 * its operation, message and retryable flag; any other error becomes a permanent error of the
 * called operation.
 */
export function toWireProvider(provider: Provider): WireProvider {
  const admin = provider.asManagementCapability?.() ?? null;
  return {
    name: provider.name,
    version: provider.version,
    fetchOrchestrationItem: async ({ lockTimeoutMs, pollTimeoutMs, filter }) => {
      const fetched = await provider.fetchOrchestrationItem(
        lockTimeoutMs,
        pollTimeoutMs,
        filter === null ? null : capabilityFilterFromWire(filter),
      );
      return fetched === null ? null : fetchedOrchestrationItemToWire(fetched);
    },
    ackOrchestrationItem: async (args) => {
      await provider.ackOrchestrationItem(
        args.lockToken,
        args.executionId,
        eventsFromWire(args.historyDelta),
        args.workerItems.map(decodeWorkItem),
        args.orchestratorItems.map(decodeWorkItem),
        metadataFromWire(args.metadata),
        args.cancelledActivities,
      );
      return undefined;
    },
    abandonOrchestrationItem: async ({ lockToken, delayMs, ignoreAttempt }) => {
      await provider.abandonOrchestrationItem(lockToken, delayMs, ignoreAttempt);
      return undefined;
    },
    renewOrchestrationItemLock: async ({ lockToken, extendForMs }) => {
      await provider.renewOrchestrationItemLock(lockToken, extendForMs);
      return undefined;
    },
    enqueueForOrchestrator: async ({ item, delayMs }) => {
      await provider.enqueueForOrchestrator(decodeWorkItem(item), delayMs);
      return undefined;
    },
    read: async (instance) => eventsToWire(await provider.read(instance)),
    readWithExecution: async ({ instance, executionId }) =>
      eventsToWire(await provider.readWithExecution(instance, executionId)),
    appendWithExecution: async ({ instance, executionId, newEvents }) => {
      await provider.appendWithExecution(instance, executionId, eventsFromWire(newEvents));
      return undefined;
    },
    enqueueForWorker: async (item) => {
      await provider.enqueueForWorker(decodeWorkItem(item));
      return undefined;
    },
    fetchWorkItem: async ({ lockTimeoutMs, pollTimeoutMs, session, tagFilter }) => {
      const fetched = await provider.fetchWorkItem(
        lockTimeoutMs,
        pollTimeoutMs,
        session,
        tagFilterFromWire(tagFilter),
      );
      return fetched === null
        ? null
        : {
            item: encodeWorkItem(fetched.item),
            lockToken: fetched.lockToken,
            attemptCount: fetched.attemptCount,
          };
    },
    ackWorkItem: async ({ lockToken, completion }) => {
      await provider.ackWorkItem(
        lockToken,
        completion === null ? null : decodeWorkItem(completion),
      );
      return undefined;
    },
    renewWorkItemLock: async ({ lockToken, extendForMs }) => {
      await provider.renewWorkItemLock(lockToken, extendForMs);
      return undefined;
    },
    abandonWorkItem: async ({ lockToken, delayMs, ignoreAttempt }) => {
      await provider.abandonWorkItem(lockToken, delayMs, ignoreAttempt);
      return undefined;
    },
    renewSessionLock: ({ ownerIds, extendForMs, idleTimeoutMs }) =>
      provider.renewSessionLock(ownerIds, extendForMs, idleTimeoutMs),
    cleanupOrphanedSessions: (idleTimeoutMs) => provider.cleanupOrphanedSessions(idleTimeoutMs),
    getCustomStatus: ({ instance, lastSeenVersion }) =>
      provider.getCustomStatus(instance, lastSeenVersion),
    getKvValue: ({ instance, key }) => provider.getKvValue(instance, key),
    getKvAllValues: async (instance) => Object.fromEntries(await provider.getKvAllValues(instance)),
    getInstanceStats: (instance) => provider.getInstanceStats(instance),
    admin: admin === null ? null : toWireProviderAdmin(admin),
  };
}
