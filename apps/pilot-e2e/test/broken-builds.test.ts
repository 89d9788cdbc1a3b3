import { useTestSchema } from '@duro/test-postgres/vitest';
import { describe, expect, it } from 'vitest';
import { TEST_FAULT_ENV, type TestFault } from '../src/roles/test-faults.js';
import { runSwarmCli } from './run-cli.js';

const BROKEN_TIMEOUT_MS = 120_000;

/** A swarm of one worker and a few sessions, without chaos: only the built-in defect goes wrong. */
const TINY = [
  ...['--preset', 'smoke', '--no-chaos', '--workers', '1', '--second-schema-workers', '0'],
  ...['--sessions', '3', '--duration', '4s'],
];

async function runBroken(
  schema: { readonly databaseUrl: string; readonly name: string },
  fault: TestFault,
) {
  const run = await runSwarmCli(schema, TINY, { [TEST_FAULT_ENV]: fault });
  expect(run.report, run.output).toBeDefined();
  return { ...run, failed: run.report?.invariants.filter((result) => !result.passed) ?? [] };
}

describe('the swarm check on a deliberately broken build', () => {
  const schema = useTestSchema();

  it(
    'fails no-stall, naming the claim, when a runtime drops one session activity it claimed',
    async () => {
      const { code, output, failed } = await runBroken(schema, 'drop-session-claim');
      expect(code, output).toBe(1);
      expect(output).toContain('FAIL  no-stall');
      const noStall = failed.find((result) => result.name === 'no-stall');
      expect(noStall?.violations.join('\n'), output).toMatch(
        /claimed \S+ activity \S+ of session \S+ and neither acknowledged nor abandoned it/,
      );
    },
    BROKEN_TIMEOUT_MS,
  );

  it(
    'fails no-expired-lease, naming the lease, when the provider hands out a lease already expired',
    async () => {
      const { code, output, failed } = await runBroken(schema, 'expired-lease');
      expect(code, output).toBe(1);
      expect(output).toContain('FAIL  no-expired-lease');
      const expired = failed.find((result) => result.name === 'no-expired-lease');
      expect(expired?.violations.join('\n'), output).toMatch(
        /got a worker lease on \S+ \(\w+\) with -\d+ ms left/,
      );
    },
    BROKEN_TIMEOUT_MS,
  );
});
