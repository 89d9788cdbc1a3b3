/**
 * `@duro/duroxide`: duroxide-node's JavaScript API on duro. An application written for
 * duroxide-node (the npm package `duroxide`) switches by changing the package name it depends
 * on and imports from; every name it imports (`SqliteProvider`, `PostgresProvider`, `Client`,
 * `Runtime`, `OrchestrationContext`, `ActivityContext`, `initTracing`, the `MAX_*` limits and
 * the `Js*` result types) is here, with duroxide-node's meaning.
 *
 * @example
 * ```ts
 * import { Client, Runtime, SqliteProvider } from '@duro/duroxide'; // was: from 'duroxide'
 *
 * const provider = await SqliteProvider.inMemory();
 * const runtime = new Runtime(provider);
 * runtime.registerActivity('Greet', async (ctx, name) => `Hello, ${name}!`);
 * runtime.registerOrchestration('Hello', function* (ctx, name) {
 *   return yield ctx.scheduleActivity('Greet', name);
 * });
 * await runtime.start();
 * const client = new Client(provider);
 * await client.startOrchestration('hello-1', 'Hello', 'world');
 * console.log((await client.waitForOrchestration('hello-1')).output); // "Hello, world!"
 * await runtime.shutdown();
 * ```
 *
 * @module @duro/duroxide
 */
export {
  ActivityContext,
  Client,
  MAX_KV_KEYS,
  MAX_KV_VALUE_BYTES,
  MAX_TAG_NAME_BYTES,
  MAX_WORKER_TAGS,
  OrchestrationContext,
  Runtime,
  initTracing,
  type JoinResult,
  type RaceResult,
  type RetryPolicy,
  type RuntimeOptions,
  type ScheduledTask,
  type SystemStats,
} from '@duro/core';
export { PostgresProvider } from '@duro/provider-postgres';
export { SqliteProvider } from '@duro/provider-sqlite';
export type {
  JsDeleteInstanceResult,
  JsEvent,
  JsExecutionInfo,
  JsInstanceFilter,
  JsInstanceInfo,
  JsInstanceTree,
  JsMetricsSnapshot,
  JsOrchestrationStatus,
  JsPruneOptions,
  JsPruneResult,
  JsQueueDepths,
  JsSystemMetrics,
  JsSystemStats,
  JsTracingOptions,
  TagFilter,
} from './duroxide-node-types.js';
