import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { RunReport } from '../src/report/run-report.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Every invariant the report must list, in its order. */
export const INVARIANT_NAMES = [
  'sessions-complete',
  'delivered-once-in-order',
  'claims-observed',
  'no-expired-lease',
  'no-stall',
  'no-ack-loop',
  'attempts-bounded',
  'queues-drained',
  'history-bounded',
];

/**
 * Runs the built CLI (which forks worker processes running the built JavaScript, so `pnpm build`
 * first) on the test schema with `args` and `env` added to the environment, and returns its exit
 * code, its output and its report.
 */
export async function runSwarmCli(
  schema: { readonly databaseUrl: string; readonly name: string },
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number | null; output: string; report: RunReport | undefined }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build @duro/pilot-e2e first`);
  const folder = await mkdtemp(join(tmpdir(), 'pilot-e2e-test-'));
  const reportFile = join(folder, 'report.json');
  const fullArgs = [
    ...args,
    ...['--database-url', schema.databaseUrl, '--schema-prefix', schema.name],
    ...['--report', reportFile, '--log-dir', join(folder, 'logs')],
  ];
  const { code, output } = await new Promise<{ code: number | null; output: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...fullArgs], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (exitCode) => resolve({ code: exitCode, output: text }));
    },
  );
  const report = existsSync(reportFile)
    ? (JSON.parse(await readFile(reportFile, 'utf8')) as RunReport)
    : undefined;
  return { code, output, report };
}

/**
 * Runs the CLI as {@link runSwarmCli} does and asserts that the run passed: a report listing
 * every invariant, none failed, exit code 0. Returns the report.
 */
export async function runPassingSwarm(
  schema: { readonly databaseUrl: string; readonly name: string },
  args: readonly string[],
): Promise<RunReport> {
  const { code, output, report } = await runSwarmCli(schema, args);
  if (report === undefined) throw new Error(`the run wrote no report:\n${output}`);
  const failed = report.invariants.filter((result) => !result.passed);
  expect(failed, output).toEqual([]);
  expect(code, output).toBe(0);
  expect(report.invariants.map((result) => result.name)).toEqual(INVARIANT_NAMES);
  return report;
}
