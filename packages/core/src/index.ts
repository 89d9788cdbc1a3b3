/**
 * `@duro/core`: durable orchestrations for TypeScript. This package holds the duroxide provider
 * contract (`Provider`, `ProviderAdmin`, `ProviderError`), the history and work-item model with
 * its byte-compatible JSON codec, the runtime and client, and an in-memory provider.
 *
 * @module @duro/core
 */
export {
  errorCategory,
  errorDisplayMessage,
  isRetryableError,
  type AppErrorKind,
  type ConfigErrorKind,
  type ErrorDetails,
  type PoisonMessageType,
} from './model/error-details.js';
export {
  decodeErrorDetails,
  encodeErrorDetails,
  errorDetailsFromWire,
  errorDetailsToWire,
} from './model/error-details-codec.js';
export {
  isTerminalEvent,
  type CarriedEvent,
  type Event,
  type EventKind,
  type EventKindOf,
  type EventOf,
  type EventType,
} from './model/event.js';
export {
  decodeEvent,
  encodeEvent,
  eventFromWire,
  eventToWire,
  eventWireTag,
} from './model/event-codec.js';
export { compareSemver, formatSemver, parseSemver, type SemverVersion } from './model/semver.js';
export {
  workItemInstance,
  type WorkItem,
  type WorkItemOf,
  type WorkItemType,
} from './model/work-item.js';
export {
  decodeWorkItem,
  encodeWorkItem,
  workItemFromWire,
  workItemToWire,
} from './model/work-item-codec.js';
export { WireFormatError } from './model/wire-format-error.js';
export { InMemoryProvider, type InMemoryProviderOptions } from './memory/in-memory-provider.js';
export type { ExecutionMetadata, ExecutionStatus } from './provider/execution-metadata.js';
export {
  MAX_WORKER_TAGS,
  TagFilter,
  capabilityFilterAccepts,
  semverRangeContains,
  tagFilterMatches,
  type DispatcherCapabilityFilter,
  type SemverRange,
  type SessionFetchConfig,
} from './provider/fetch-filters.js';
export { deleteInstanceTree, walkInstanceTree } from './provider/instance-tree.js';
export { batchOriginWithoutInstance, type BatchOrigin } from './provider/batch-origin.js';
export { activityClaimTakes, type ActivityClaim } from './provider/activity-claim.js';
export type {
  DeleteInstanceResult,
  ExecutionInfo,
  InstanceFilter,
  InstanceInfo,
  InstanceTree,
  PruneOptions,
  PruneResult,
  QueueDepths,
  SystemMetrics,
} from './provider/management.js';
export type {
  FetchedOrchestrationItem,
  FetchedWorkItem,
  KvEntry,
  OrchestrationItem,
  ScheduledActivityIdentifier,
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
  OrchestrationTurnCommit,
  WorkItemAck,
  WorkItemAckOutcome,
} from './provider/orchestration-item.js';
export type { CustomStatus, Provider } from './provider/provider.js';
export type { ProviderAdmin } from './provider/provider-admin.js';
export { ProviderError } from './provider/provider-error.js';
export type { SystemStats } from './provider/system-stats.js';
export { delayOrZeroMs, requireDurationMs } from './provider/duration-arguments.js';
export { requireActivity, requireOrchestratorItem } from './provider/queue-items.js';
export { WorkSignal, pollForWork } from './provider/work-signal.js';
export {
  requireDistinctLockTokens,
  requireMaxItems,
  requireWorkItemBatchLimits,
} from './provider/work-item-batch.js';
export { Runtime } from './runtime/runtime.js';
export type { RuntimeOptions, TagFilterOption } from './runtime/runtime-options.js';
export type { MetricsSnapshot } from './runtime/runtime-metrics.js';
export {
  createDefaultLogger,
  withLogFields,
  type DefaultLoggerOptions,
  type LogFields,
  type Logger,
  type LogLevel,
} from './runtime/logger.js';
export type { LogFormat } from './runtime/log-line-format.js';
export { initTracing, type TracingOptions } from './runtime/init-tracing.js';
export { ActivityContext, type ActivityInfo } from './runtime/activity-context.js';
export type { ActivityFunction } from './runtime/registry.js';
export {
  OrchestrationContext,
  type ActivityOptions,
  type JoinResults,
  type RaceResults,
} from './runtime/replay/orchestration-context.js';
export {
  OrchestrationState,
  type OrchestrationInfo,
} from './runtime/replay/orchestration-state.js';
export { childInstanceId } from './model/sub-orchestration-id.js';
export type { OrchestrationFunction } from './runtime/replay/replay-engine.js';
export type {
  ActivityTask,
  JoinResult,
  OutputOf,
  RaceResult,
  RetryBackoff,
  RetryPolicy,
  ScheduledTask,
} from './runtime/replay/scheduled-task.js';
export {
  MAX_CARRY_FORWARD_EVENTS,
  MAX_CUSTOM_STATUS_BYTES,
  MAX_KV_KEYS,
  MAX_KV_VALUE_BYTES,
  MAX_TAG_NAME_BYTES,
} from './runtime/limits.js';
export { DUROXIDE_VERSION } from './runtime/runtime-version.js';
export {
  Client,
  type OrchestrationStatus,
  type ParsedOrchestrationStatus,
} from './client/client.js';
export { ClientError, type ClientErrorKind } from './client/client-error.js';
export type { HistoryEvent } from './client/history-event.js';
export {
  ManagementClient,
  type InstanceTreeInfo,
  type ParsedExecutionInfo,
  type ParsedInstanceInfo,
} from './client/management-client.js';
