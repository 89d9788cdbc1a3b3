import type { RuntimeOptions } from '@duro/core';
import type { PostgresProviderOptions } from '@duro/provider-postgres';
import type { Caps, RuntimeName, RuntimeSettings } from './options.js';

/** How one runtime process of a cell is configured; plain data, sent to the process as JSON. */
export type WorkerConfig =
  | {
      readonly kind: 'duro';
      readonly providerOptions: PostgresProviderOptions;
      readonly runtimeOptions: RuntimeOptions;
    }
  | {
      readonly kind: 'rust';
      /** duroxide's `orchestration_concurrency` and `worker_concurrency`. */
      readonly orchestrationConcurrency: number;
      readonly workerConcurrency: number;
      /** duroxide's `dispatcher_min_poll_interval`, ms. */
      readonly dispatcherPollIntervalMs: number;
      /** duroxide-pg's pool connections. */
      readonly poolMaxConnections: number;
    };

/**
 * What a cell's runtime promises, the things that must be equal for a comparison to mean
 * anything: how much runs at once over all its processes, and whether what it acknowledges and
 * claims is on disk before it goes on. How it batches turns and fetches is not a promise.
 */
export interface Guarantees {
  /** Activity functions running at once, at most, over every runtime process. */
  readonly activitiesAtOnce: number;
  /** Orchestration slots over every runtime process. */
  readonly orchestrationSlots: number;
  /** Acknowledgements (activity completions, turns) commit durably before they count. */
  readonly durableAcks: boolean;
  /** Claims (fetches) commit durably. */
  readonly durableClaims: boolean;
}

/** duroxide-pg's pool when `--rust-pool` is not given: the caps' slots plus two, 10 to 50. */
export const defaultRustPool = (caps: Caps): number =>
  Math.min(50, Math.max(10, caps.orchestrations + caps.activities + 2));

/** The configuration of each runtime process of `runtime` at `caps`. */
export function workerConfig(
  runtime: RuntimeName,
  caps: Caps,
  settings: RuntimeSettings,
): WorkerConfig {
  if (runtime === 'rust') {
    return {
      kind: 'rust',
      orchestrationConcurrency: caps.orchestrations,
      workerConcurrency: caps.activities,
      dispatcherPollIntervalMs: settings.rustPollMs,
      poolMaxConnections: settings.rustPool ?? defaultRustPool(caps),
    };
  }
  const runtimeOptions: RuntimeOptions = {
    orchestrationConcurrency: caps.orchestrations,
    workerConcurrency: caps.activities,
    orchestrationBatchSize: runtime === 'duro-one-turn' ? 1 : settings.duroOrchestrationBatch,
    workerBatchSize: Math.min(settings.duroWorkerBatch ?? caps.activities, caps.activities),
    activityHandoff: runtime !== 'duro-fetched',
    logLevel: 'silent',
  };
  const providerOptions: PostgresProviderOptions = {
    poolSize: settings.duroPool,
    ...(runtime === 'duro-uncached' ? { historyCacheSize: 0 } : {}),
    ...(runtime === 'duro-non-durable-claims' ? { nonDurableClaims: true } : {}),
  };
  return { kind: 'duro', providerOptions, runtimeOptions };
}

/** What `processes` runtime processes configured by `config` promise together. */
export function guaranteesOf(config: WorkerConfig, processes: number): Guarantees {
  if (config.kind === 'rust') {
    return {
      activitiesAtOnce: config.workerConcurrency * processes,
      orchestrationSlots: config.orchestrationConcurrency * processes,
      durableAcks: true,
      durableClaims: true,
    };
  }
  return {
    activitiesAtOnce: (config.runtimeOptions.workerConcurrency ?? 8) * processes,
    orchestrationSlots: (config.runtimeOptions.orchestrationConcurrency ?? 4) * processes,
    durableAcks: true,
    durableClaims: config.providerOptions.nonDurableClaims !== true,
  };
}

/** How two runtimes' guarantees differ, in words; empty when they are equal. */
export function guaranteeDifferences(a: Guarantees, b: Guarantees): string[] {
  const differences: string[] = [];
  if (a.activitiesAtOnce !== b.activitiesAtOnce) {
    differences.push(`activities at once ${a.activitiesAtOnce} vs ${b.activitiesAtOnce}`);
  }
  if (a.orchestrationSlots !== b.orchestrationSlots) {
    differences.push(`orchestration slots ${a.orchestrationSlots} vs ${b.orchestrationSlots}`);
  }
  const durable = (yes: boolean): string => (yes ? 'durable' : 'not durable');
  if (a.durableAcks !== b.durableAcks) {
    differences.push(`acks ${durable(a.durableAcks)} vs ${durable(b.durableAcks)}`);
  }
  if (a.durableClaims !== b.durableClaims) {
    differences.push(`claims ${durable(a.durableClaims)} vs ${durable(b.durableClaims)}`);
  }
  return differences;
}

/** The settings of `config` that are choices rather than guarantees, for the report. */
export function settingsText(config: WorkerConfig): string {
  if (config.kind === 'rust') {
    return `dispatcher poll ${config.dispatcherPollIntervalMs} ms, pool ${config.poolMaxConnections}`;
  }
  const { runtimeOptions: runtime, providerOptions: provider } = config;
  return [
    `orchestrationBatchSize ${runtime.orchestrationBatchSize}`,
    `workerBatchSize ${runtime.workerBatchSize}`,
    `activityHandoff ${runtime.activityHandoff ? 'on' : 'off'}`,
    `historyCacheSize ${provider.historyCacheSize ?? 256}`,
    `pool ${provider.poolSize}`,
  ].join(', ');
}
