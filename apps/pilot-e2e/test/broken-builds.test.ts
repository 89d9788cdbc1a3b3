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

/** Each defect, the invariant that must fail on it, and what its violation must name. */
const DEFECTS: readonly {
  readonly title: string;
  readonly fault: TestFault;
  readonly invariant: string;
  readonly violation: RegExp;
}[] = [
  {
    title: 'fails no-stall, naming the claim, when a runtime drops one session activity it claimed',
    fault: 'drop-session-claim',
    invariant: 'no-stall',
    violation: /claimed \S+ activity \S+ of session \S+ and neither acknowledged nor abandoned it/,
  },
  {
    title:
      'fails no-expired-lease, naming the lease, when the provider hands out a lease already expired',
    fault: 'expired-lease',
    invariant: 'no-expired-lease',
    violation: /got a worker lease on \S+ \(\w+\) with -\d+ ms left/,
  },
];

describe('the swarm check on a deliberately broken build', () => {
  const schema = useTestSchema();

  for (const { title, fault, invariant, violation } of DEFECTS) {
    it(
      title,
      async () => {
        const { code, output, failed } = await runBroken(schema, fault);
        expect(code, output).toBe(1);
        expect(output).toContain(`FAIL  ${invariant}`);
        const result = failed.find((candidate) => candidate.name === invariant);
        expect(result?.violations.join('\n'), output).toMatch(violation);
      },
      BROKEN_TIMEOUT_MS,
    );
  }
});
