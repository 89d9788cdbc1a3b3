#!/usr/bin/env node
/**
 * `pilot-e2e`: duro's end-to-end swarm check. By default it starts an embedded PostgreSQL with
 * PostgreSQL's own durability settings, runs the `default` preset (about a minute) and prints
 * the report; see `--help` for the flags.
 */
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from '@duro/test-postgres';
import { parseCliOptions, USAGE, UsageError, type CliOptions } from './cli-options.js';
import { runSwarm } from './roles/coordinator.js';
import { requireRustRuntime } from './roles/rust-runtime-check.js';
import { ProgressDisplay } from './report/progress.js';
import { formatSummary } from './report/summary.js';

/** Room for several worker pools per process; nothing about durability is changed. */
const EMBEDDED_SETTINGS = { max_connections: '300' };

async function openDatabase(options: CliOptions): Promise<{
  url: string;
  route: string;
  server: EmbeddedPostgresServer | undefined;
  stop: () => Promise<void>;
}> {
  if (options.databaseUrl !== undefined) {
    return {
      url: options.databaseUrl,
      route: 'database-url',
      server: undefined,
      stop: async () => undefined,
    };
  }
  const server = await startEmbeddedPostgres({ settings: EMBEDDED_SETTINGS });
  return { url: server.url, route: server.route, server, stop: () => server.stop() };
}

async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliOptions(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pilot-e2e: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (options.mixedFleet) await requireRustRuntime();
  const logDir = options.logDir ?? (await mkdtemp(join(tmpdir(), 'pilot-e2e-')));
  await mkdir(logDir, { recursive: true });
  const progress = new ProgressDisplay();
  const database = await openDatabase(options);
  try {
    const report = await runSwarm({
      config: options.config,
      preset: options.preset,
      databaseUrl: database.url,
      databaseRoute: database.route,
      server: database.server,
      schemaPrefix: options.schemaPrefix,
      logDir,
      keepSchemas: options.keepSchemas,
      mixedFleet: options.mixedFleet,
      progress,
    });
    process.stdout.write(`${formatSummary(report)}\n`);
    if (options.reportFile !== undefined) {
      await writeFile(options.reportFile, `${JSON.stringify(report, null, 2)}\n`);
    }
    return report.passed ? 0 : 1;
  } finally {
    await database.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `pilot-e2e: the run could not be carried out: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(3);
  },
);
