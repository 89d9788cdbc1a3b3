import {
  TagFilter,
  decodeEvent,
  encodeEvent,
  encodeWorkItem,
  parseSemver,
  type DispatcherCapabilityFilter,
  type Event,
  type ExecutionMetadata,
  type ExecutionStatus,
  type FetchedOrchestrationItem,
  type InstanceFilter,
  type PruneOptions,
} from '@duro/core';
import type {
  WireCapabilityFilter,
  WireExecutionMetadata,
  WireFetchedOrchestrationItem,
  WireInstanceFilter,
  WireKvEntry,
  WirePruneOptions,
  WireTagFilter,
} from '../index.js';

// Conversions between duro's provider types and the wire shapes the Rust side defines in
// `src/wire/`. Events and work items cross as duroxide serde JSON, written and read with
// `@duro/core`'s codec.

const EXECUTION_STATUSES: readonly string[] = ['Running', 'Completed', 'Failed', 'ContinuedAsNew'];

function executionStatusFromWire(status: string): ExecutionStatus {
  if (!EXECUTION_STATUSES.includes(status)) {
    throw new TypeError(`duroxide sent an unknown execution status "${status}"`);
  }
  return status as ExecutionStatus;
}

/** @internal */
export function metadataFromWire(wire: WireExecutionMetadata): ExecutionMetadata {
  return {
    ...(wire.status !== null && { status: executionStatusFromWire(wire.status) }),
    ...(wire.output !== null && { output: wire.output }),
    ...(wire.orchestrationName !== null && { orchestrationName: wire.orchestrationName }),
    ...(wire.orchestrationVersion !== null && { orchestrationVersion: wire.orchestrationVersion }),
    ...(wire.parentInstanceId !== null && { parentInstanceId: wire.parentInstanceId }),
    ...(wire.pinnedDuroxideVersion !== null && {
      pinnedDuroxideVersion: parseSemver(wire.pinnedDuroxideVersion),
    }),
  };
}

/** @internal */
export function capabilityFilterFromWire(wire: WireCapabilityFilter): DispatcherCapabilityFilter {
  return {
    supportedDuroxideVersions: wire.supportedDuroxideVersions.map((range) => ({
      min: parseSemver(range.min),
      max: parseSemver(range.max),
    })),
  };
}

/** @internal */
export function tagFilterFromWire(wire: WireTagFilter): TagFilter {
  switch (wire.type) {
    case 'DefaultOnly':
      return TagFilter.defaultOnly();
    case 'Tags':
      return TagFilter.tags(wire.tags);
    case 'DefaultAnd':
      return TagFilter.defaultAnd(wire.tags);
    case 'Any':
      return TagFilter.any();
    case 'None':
      return TagFilter.none();
  }
}

/** @internal */
export function fetchedOrchestrationItemToWire(
  fetched: FetchedOrchestrationItem,
): WireFetchedOrchestrationItem {
  const { item } = fetched;
  const kvSnapshot: Record<string, WireKvEntry> = {};
  for (const [key, entry] of item.kvSnapshot) {
    kvSnapshot[key] = { value: entry.value, lastUpdatedAtMs: entry.lastUpdatedAtMs };
  }
  return {
    item: {
      instance: item.instance,
      orchestrationName: item.orchestrationName,
      executionId: item.executionId,
      version: item.version,
      history: item.history.map(encodeEvent),
      messages: item.messages.map(encodeWorkItem),
      historyError: item.historyError,
      kvSnapshot,
    },
    lockToken: fetched.lockToken,
    attemptCount: fetched.attemptCount,
  };
}

/** @internal */
export function eventsFromWire(jsons: readonly string[]): Event[] {
  return jsons.map(decodeEvent);
}

/** @internal */
export function eventsToWire(events: readonly Event[]): string[] {
  return events.map(encodeEvent);
}

/** @internal */
export function instanceFilterFromWire(wire: WireInstanceFilter): InstanceFilter {
  return {
    ...(wire.instanceIds !== null && { instanceIds: wire.instanceIds }),
    ...(wire.completedBefore !== null && { completedBefore: wire.completedBefore }),
    ...(wire.limit !== null && { limit: wire.limit }),
  };
}

/** @internal */
export function pruneOptionsFromWire(wire: WirePruneOptions): PruneOptions {
  return {
    ...(wire.keepLast !== null && { keepLast: wire.keepLast }),
    ...(wire.completedBefore !== null && { completedBefore: wire.completedBefore }),
  };
}
