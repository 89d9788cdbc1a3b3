import type {
  DeleteInstanceResult,
  HistoryEvent,
  InstanceFilter,
  InstanceTreeInfo,
  MetricsSnapshot,
  ParsedExecutionInfo,
  ParsedInstanceInfo,
  ParsedOrchestrationStatus,
  PruneOptions,
  PruneResult,
  QueueDepths,
  SystemMetrics,
  SystemStats,
  TagFilterOption,
  TracingOptions,
} from '@duro/core';

// duroxide-node's type names (the napi object types its `index.d.ts` declares), each the duro
// type with the same shape, so TypeScript code written against duroxide-node compiles as it is.

/** What `Client.waitForOrchestration` resolves to: the status with its output parsed. */
export type JsOrchestrationStatus = ParsedOrchestrationStatus;
/** `Client.getSystemMetrics()`. */
export type JsSystemMetrics = SystemMetrics;
/** `Client.getOrchestrationStats()`. */
export type JsSystemStats = SystemStats;
/** `Client.getQueueDepths()`. */
export type JsQueueDepths = QueueDepths;
/** `Client.getInstanceInfo()`, with its output parsed. */
export type JsInstanceInfo = ParsedInstanceInfo;
/** `Client.getExecutionInfo()`, with its output parsed. */
export type JsExecutionInfo = ParsedExecutionInfo;
/** `Client.getInstanceTree()`: `{ rootId, allIds, size }`. */
export type JsInstanceTree = InstanceTreeInfo;
/** `Client.deleteInstance()` and `deleteInstanceBulk()`. */
export type JsDeleteInstanceResult = DeleteInstanceResult;
/** The options of `Client.pruneExecutions()` and `pruneExecutionsBulk()`. */
export type JsPruneOptions = PruneOptions;
/** `Client.pruneExecutions()` and `pruneExecutionsBulk()`. */
export type JsPruneResult = PruneResult;
/** The filter of `Client.deleteInstanceBulk()` and `pruneExecutionsBulk()`. */
export type JsInstanceFilter = InstanceFilter;
/** `Runtime.metricsSnapshot()`. */
export type JsMetricsSnapshot = MetricsSnapshot;
/** One event of `Client.readExecutionHistory()`. */
export type JsEvent = HistoryEvent;
/** The options of `initTracing()`. */
export type JsTracingOptions = TracingOptions;
/** duroxide-node's friendly `workerTagFilter` forms. */
export type TagFilter = TagFilterOption;
