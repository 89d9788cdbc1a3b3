import { useTestSchema } from '@duro/test-postgres/vitest';
import { describe, expect, it } from 'vitest';
import { runPassingSwarm } from './run-cli.js';

const MIXED_TIMEOUT_MS = 180_000;
/** The Rust worker: the last main-schema worker of a mixed fleet. */
const RUST_WORKER = 'main-w1-rust';

describe('the swarm check with a mixed fleet', () => {
  const schema = useTestSchema();

  it(
    'a duro and a Rust worker share the sessions of one schema under chaos and keep every invariant',
    async () => {
      // Needs the native addon (`pnpm --filter @duro/native build`); without it the run fails.
      const report = await runPassingSwarm(schema, [
        ...['--preset', 'smoke', '--mixed-fleet', '--workers', '2', '--sessions', '10'],
        ...['--second-schema-sessions', '3', '--duration', '15s'],
      ]);
      expect(report.sessions.completed).toBe(report.sessions.instances);
      // The Rust worker did turns and activities, of sessions that duro workers served too.
      const rust = report.fleet.engines.rust;
      expect(rust?.workers).toBe(1);
      expect(rust?.orchestrationTurns ?? 0).toBeGreaterThan(0);
      expect(rust?.activities ?? 0).toBeGreaterThan(0);
      expect(report.fleet.sharedInstances).toBeGreaterThan(0);
      // Chaos reached the Rust worker.
      const onRust = report.faults.outcomes.filter(
        (outcome) => outcome.injected && outcome.target === RUST_WORKER,
      );
      expect(onRust.length, JSON.stringify(report.faults.outcomes)).toBeGreaterThan(0);
    },
    MIXED_TIMEOUT_MS,
  );
});
