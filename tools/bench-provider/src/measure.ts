import type { Provider } from '@duro/core';
import type { PostgresProvider } from '@duro/provider-postgres';
import type pg from 'pg';
import type { Workload } from './workloads.js';

/** Throughput and latency of fetch-and-ack pairs. */
export interface Measurement {
  readonly items: number;
  readonly elapsedMs: number;
  /** Pairs completed per second, all workers together. */
  readonly perSecond: number;
  /** Latency of one fetch plus its ack, ms. */
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** The `q` quantile (0..1) of ascending `sorted`, nearest rank; NaN when empty. */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** Drains the queue with `concurrency` workers, returning each pair's latency in ms. */
async function drain(
  provider: Provider,
  workload: Workload,
  concurrency: number,
): Promise<number[]> {
  const latencies: number[] = [];
  const worker = async (): Promise<void> => {
    for (;;) {
      const started = performance.now();
      if (!(await workload.fetchAndAck(provider))) return;
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}

/**
 * Fills the queue with `warmup` items and drains them unmeasured (connections open, statements
 * prepared), then fills it with `items` more and measures draining them.
 */
export async function measure(
  pool: pg.Pool,
  provider: PostgresProvider,
  workload: Workload,
  concurrency: number,
  items: number,
  warmup: number,
): Promise<Measurement> {
  await workload.fill(pool, provider, 0, warmup);
  await drain(provider, workload, concurrency);
  await workload.fill(pool, provider, warmup, items);
  const started = performance.now();
  const latencies = await drain(provider, workload, concurrency);
  const elapsedMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    items: latencies.length,
    elapsedMs,
    perSecond: (latencies.length / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}
