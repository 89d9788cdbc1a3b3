import { connectBenchClient } from './bench-client.js';
import { prepareSchema } from './cell.js';
import type { CellPlan } from './cell-plan.js';
import type { BenchDatabase } from './database.js';
import { DuroBenchWorker } from './duro-worker.js';
import { fullCollection } from './memory.js';
import { QueryCounter } from './query-counter.js';
import type { IdleResult, SoakResult } from './report.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Time a new runtime gets to open its connections and settle into waiting. */
const SETTLE_MS = 3_000;

/** The duro configuration of a plan, which the idle and soak measurements need. */
function duroConfig(plan: CellPlan): Extract<CellPlan['config'], { kind: 'duro' }> {
  if (plan.config.kind !== 'duro') throw new Error('idle and soak measure duro only');
  return plan.config;
}

/**
 * Starts a duro runtime (in this process) with nothing to do and counts the queries it sends
 * over `seconds`, after it has settled; the server's transactions are counted over the
 * runtime's whole life.
 */
export async function measureIdleWorker(
  url: string,
  db: BenchDatabase,
  plan: CellPlan,
  seconds: number,
): Promise<IdleResult> {
  const counter = QueryCounter.install();
  await prepareSchema(url, db, plan);
  const before = await db.transactionCounts();
  let lifeMs = -performance.now();
  const duro = await DuroBenchWorker.start(url, plan.schema, duroConfig(plan), () => undefined);
  let queries: number;
  try {
    await sleep(SETTLE_MS);
    const first = counter.queries;
    await sleep(seconds * 1000);
    queries = counter.queries - first;
  } finally {
    await duro.stop();
    lifeMs += performance.now();
  }
  const after = await db.transactionCounts();
  await db.dropSchema(plan.schema);
  const transactions = after.commits + after.rollbacks - before.commits - before.rollbacks;
  return {
    caps: plan.caps,
    seconds,
    queriesPerSecond: queries / seconds,
    transactionsPerSecond: transactions / (lifeMs / 1000),
  };
}

/** How often the soak samples the process's RSS, ms. */
const RSS_SAMPLE_MS = 10_000;

const rssMiB = (): number => process.memoryUsage().rss / 2 ** 20;

/**
 * Runs the plan's workload continuously for `seconds` (after a warm-up of a tenth of that, at
 * most 30 s) and samples this process's RSS and, right after a full collection, its heap in use:
 * the runtime runs in this process here. RSS alone rises while V8 puts off full collections; the heap after
 * one shows what is really kept. With each sample it counts the orchestrations completed, so
 * the throughput of every interval shows whether the worker slows down as the schema grows.
 */
export async function soak(
  url: string,
  db: BenchDatabase,
  plan: CellPlan,
  seconds: number,
): Promise<SoakResult> {
  await prepareSchema(url, db, plan);
  const waiting = new Map<string, () => void>();
  const duro = await DuroBenchWorker.start(url, plan.schema, duroConfig(plan), (instance) => {
    waiting.get(instance)?.();
    waiting.delete(instance);
  });
  const client = await connectBenchClient('duro', url, plan.schema, plan.workload, null);
  const runInstance = async (instance: string): Promise<void> => {
    const ended = new Promise<void>((resolve) => waiting.set(instance, resolve));
    await client.start(instance);
    await ended;
  };
  const warmupMs = Math.min(30_000, seconds * 100);
  const began = performance.now();
  const endsAt = began + warmupMs + seconds * 1000;
  const collect = fullCollection();
  const samples: { atMs: number; rss: number; heap: number; completed: number }[] = [];
  let orchestrations = 0;
  const sample = (): void => {
    const rss = rssMiB();
    collect();
    samples.push({
      atMs: performance.now() - began,
      rss,
      heap: process.memoryUsage().heapUsed / 2 ** 20,
      completed: orchestrations,
    });
  };
  let next = 0;
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  try {
    const lane = async (): Promise<void> => {
      while (performance.now() < endsAt) {
        await runInstance(`soak-${next++}`);
        if (performance.now() - began > warmupMs) orchestrations++;
      }
    };
    await Promise.all(Array.from({ length: plan.inFlight }, lane));
    sample();
  } finally {
    clearInterval(sampler);
    await client.close();
    await duro.stop();
  }
  await db.dropSchema(plan.schema);
  // Samples from the warm-up are dropped: the first kept one is the start.
  const kept = samples.filter((s) => s.atMs >= warmupMs);
  return {
    seconds,
    orchestrations,
    rssMiB: kept.map((s) => s.rss),
    heapAfterCollectionMiB: kept.map((s) => s.heap),
    orchestrationsPerSecond: kept.slice(1).map((s, i) => {
      const before = kept[i] ?? s;
      return ((s.completed - before.completed) * 1000) / (s.atMs - before.atMs);
    }),
  };
}
