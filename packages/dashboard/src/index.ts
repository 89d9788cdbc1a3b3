/**
 * `@duro/dashboard`: a web dashboard for a duro schema on PostgreSQL. It lists instances with
 * filters and live counts, shows one instance (input, output or error, custom status, key/values,
 * its history as a timeline, its sub-orchestration tree, its executions, and why it is not
 * running), the queues, locks, sessions and throughput, and, when enabled, takes actions (raise
 * an event, enqueue a message, cancel, delete, prune), each confirmed and logged.
 *
 * `duro ui` (from `@duro/provider-postgres`) starts it; an app can start it too, or mount it.
 *
 * @example
 * ```ts
 * import { startDashboard } from '@duro/dashboard';
 *
 * const dashboard = await startDashboard({ databaseUrl: process.env.DATABASE_URL!, schema: 'orders' });
 * console.log(`open ${dashboard.url}`);
 * ```
 *
 * @module @duro/dashboard
 */
export {
  createDashboard,
  startDashboard,
  type Dashboard,
  type RunningDashboard,
} from './dashboard.js';
export {
  DashboardOptionsError,
  type DashboardOptions,
  type StartDashboardOptions,
} from './dashboard-options.js';
export type {
  ActionName,
  ActionRequests,
  ActionResultJson,
  BoundedCountJson,
  ErrorJson,
  ExecutionJson,
  ExecutionTimelineJson,
  InstanceDetailJson,
  InstancePageJson,
  ListedInstanceJson,
  QueueSampleJson,
  QueuesJson,
  SessionInfo,
  SpanKind,
  StatusCountsJson,
  TimelineEventJson,
  TimelineSpanJson,
  TimelineTurnJson,
  TreeNodeJson,
} from './shared/api-types.js';
