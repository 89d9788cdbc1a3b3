/**
 * `@duro/provider-postgres/inspection`: read-only views of a duro schema for operators' tools,
 * shared by the `duro` command and `@duro/dashboard`. They read only the tables duroxide-pg
 * defines, so they work on a schema the Rust provider migrated too.
 *
 * @example
 * ```ts
 * import {
 *   DEFAULT_FLEET_ASSUMPTIONS,
 *   SchemaInspector,
 *   explainDiagnosis,
 * } from '@duro/provider-postgres/inspection';
 *
 * const inspector = await SchemaInspector.connect(process.env.DATABASE_URL!, 'orders');
 * const counts = await inspector.countInstancesByStatus();
 * const diagnosis = await inspector.readInstanceDiagnosis('order-42');
 * const why = explainDiagnosis(diagnosis, DEFAULT_FLEET_ASSUMPTIONS, Date.now());
 * console.log(counts, why.verdict);
 * await inspector.close();
 * ```
 *
 * @module @duro/provider-postgres/inspection
 */
export { SchemaInspector, type SchemaInspectorOptions } from './schema-inspector.js';
export type { InspectedSchema } from './inspected-schema.js';
export { InspectionError, type InspectionErrorCode } from './inspection-error.js';
export { INSTANCE_STATUSES, isInstanceStatus, type InstanceStatus } from './instance-statuses.js';
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  readInstancePage,
  type InstanceListFilter,
  type InstancePage,
  type InstancePageRequest,
  type ListedInstance,
} from './instance-page.js';
export { countInstancesByStatus, type StatusCount } from './status-counts.js';
export { COUNT_BOUND, type BoundedCount } from './bounded-count.js';
export {
  readInstanceSummary,
  type ExecutionSummary,
  type InstanceSummary,
} from './instance-summary.js';
export {
  readExecutionHistory,
  type ExecutionHistory,
  type HistoryRecord,
} from './execution-history.js';
export {
  readInstanceTree,
  type InstanceHierarchy,
  type InstanceTreeNode,
} from './instance-tree.js';
export {
  readInstanceDiagnosis,
  type InstanceDiagnosis,
  type QueuedMessage,
  type SessionLease,
} from './read-instance-diagnosis.js';
export {
  DEFAULT_FLEET_ASSUMPTIONS,
  explainDiagnosis,
  type Explanation,
  type FleetAssumptions,
  type Finding,
} from './explain-diagnosis.js';
export {
  readQueueOverview,
  type ClaimedActivity,
  type DueTimer,
  type HeldInstanceLock,
  type QueueOverview,
  type SessionOwner,
} from './queue-overview.js';
export { readActivityCounters, type ActivityCounters } from './activity-counters.js';
export { formatDuration, formatTime } from './time-text.js';
