import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useTestSchema } from '@duro/test-postgres/vitest';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../src/report/run-report.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const SMOKE_TIMEOUT_MS = 300_000;

function runCli(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the swarm check', () => {
  const schema = useTestSchema();

  it(
    'a small swarm under kills, a freeze and dropped connections keeps every invariant',
    async () => {
      // The check forks worker processes, which run the built JavaScript (`pnpm build` first).
      expect(existsSync(CLI), `${CLI} is missing: build @duro/pilot-e2e first`).toBe(true);
      const folder = await mkdtemp(join(tmpdir(), 'pilot-e2e-smoke-'));
      const reportFile = join(folder, 'report.json');
      const { code, output } = await runCli([
        '--preset',
        'smoke',
        '--database-url',
        schema.databaseUrl,
        '--schema-prefix',
        schema.name,
        '--report',
        reportFile,
        '--log-dir',
        join(folder, 'logs'),
      ]);
      const report = JSON.parse(await readFile(reportFile, 'utf8')) as RunReport;
      const failed = report.invariants.filter((result) => !result.passed);
      expect(failed, output).toEqual([]);
      expect(code, output).toBe(0);
      expect(report.invariants.map((result) => result.name)).toEqual([
        'sessions-complete',
        'delivered-once-in-order',
        'no-expired-lease',
        'no-ack-loop',
        'attempts-bounded',
        'queues-drained',
        'history-bounded',
      ]);
      // The chaos must really have happened for the run to prove anything.
      expect(report.faults.injected['kill-mid-activity'] ?? 0).toBeGreaterThan(0);
      expect(report.faults.injected.freeze ?? 0).toBeGreaterThan(0);
      expect(report.faults.injected['connection-drop'] ?? 0).toBeGreaterThan(0);
      expect(report.fleet.restarts).toBeGreaterThan(0);
      expect(report.sessions.completed).toBe(report.sessions.instances);
    },
    SMOKE_TIMEOUT_MS,
  );
});
