import { useTestSchema } from '@duro/test-postgres/vitest';
import { describe, expect, it } from 'vitest';
import { runPassingSwarm } from './run-cli.js';

const SMOKE_TIMEOUT_MS = 300_000;

describe('the swarm check', () => {
  const schema = useTestSchema();

  it(
    'a small swarm under kills, a freeze and dropped connections keeps every invariant',
    async () => {
      const report = await runPassingSwarm(schema, ['--preset', 'smoke']);
      // The chaos must really have happened for the run to prove anything.
      expect(report.faults.injected['kill-mid-activity'] ?? 0).toBeGreaterThan(0);
      expect(report.faults.injected.freeze ?? 0).toBeGreaterThan(0);
      expect(report.faults.injected['connection-drop'] ?? 0).toBeGreaterThan(0);
      expect(report.fleet.restarts).toBeGreaterThan(0);
      expect(report.sessions.completed).toBe(report.sessions.instances);
      // Every lease a worker was handed was observed, activities (fetched in batches) included.
      expect(report.leases.orchestrator.fetches).toBeGreaterThan(0);
      expect(report.leases.worker.fetches).toBeGreaterThan(0);
    },
    SMOKE_TIMEOUT_MS,
  );
});
