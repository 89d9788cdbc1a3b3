import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The database pgbench gets for itself, so its tables never mix with duro's. */
const PGBENCH_DATABASE = 'duro_bench_pgbench';

/** `url` pointing at another database of the same server. */
function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  parsed.searchParams.delete('options');
  return parsed.toString();
}

/**
 * Creates (afresh) pgbench's database on the server of `url` and initializes it at `scale`.
 * @returns the URL to run pgbench against.
 * @throws when the `pgbench` program is missing (Debian: `apt-get install postgresql-client`).
 */
export async function preparePgbench(url: string, scale: number): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${PGBENCH_DATABASE}`);
    await admin.query(`CREATE DATABASE ${PGBENCH_DATABASE}`);
  } finally {
    await admin.end();
  }
  const target = databaseUrl(url, PGBENCH_DATABASE);
  await run('pgbench', ['-i', '-q', '-s', String(scale), target]);
  return target;
}

/** Drops pgbench's database. */
export async function dropPgbench(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${PGBENCH_DATABASE}`);
  } finally {
    await admin.end();
  }
}

/**
 * Runs pgbench's built-in TPC-B-like script for `seconds` with `clients` connections and
 * returns its transactions per second (without connection time).
 */
export async function pgbenchTps(
  target: string,
  clients: number,
  seconds: number,
): Promise<number> {
  const threads = Math.max(1, Math.min(clients, 4));
  const { stdout } = await run('pgbench', [
    '-c',
    String(clients),
    '-j',
    String(threads),
    '-T',
    String(seconds),
    target,
  ]);
  const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
  if (match === null) throw new Error(`could not read pgbench's tps from:\n${stdout}`);
  return Number(match[1]);
}
