import { expect, it } from 'vitest';
import { Runtime } from '../../runtime/runtime.js';
import { Client } from '../../client/client.js';
import type { OrchestrationContext } from '../../runtime/replay/orchestration-context.js';
import { SCENARIO_OPTIONS, eventually, type RuntimeScenarioProviders } from './scenario-harness.js';

/** Scenarios about shutdown and a second runtime taking over. */
export function recoveryScenarios(providers: RuntimeScenarioProviders): void {
  it('shutdown of an idle runtime returns before its budget runs out', async () => {
    const provider = await providers.createProvider();
    try {
      const runtime = new Runtime(provider, {
        ...SCENARIO_OPTIONS,
        dispatcherLongPollTimeoutMs: 30_000,
      });
      await runtime.start();
      // A shutdown that slept its whole budget would outlive the test's timeout.
      await runtime.shutdown(3_600_000);
    } finally {
      await providers.destroyProvider?.(provider);
    }
  });

  it('a runtime shut down mid-activity hands it to another runtime, which commits it once', async () => {
    let firstRunSawAbort = false;
    let runs = 0;
    const provider = await providers.createProvider();
    const client = new Client(provider);
    const job = function* (ctx: OrchestrationContext): Generator<unknown, unknown, unknown> {
      return yield ctx.scheduleActivity('Work');
    };
    const first = new Runtime(provider, SCENARIO_OPTIONS);
    first.registerActivity('Work', async (ctx) => {
      runs += 1;
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      firstRunSawAbort = true;
      return 'from the first runtime';
    });
    first.registerOrchestration('Job', job);
    const second = new Runtime(provider, SCENARIO_OPTIONS);
    second.registerActivity('Work', async () => 'from the second runtime');
    second.registerOrchestration('Job', job);
    try {
      await first.start();
      await client.startOrchestration('job', 'Job');
      await eventually('the first runtime runs the activity', () => runs === 1);
      await first.shutdown(100);
      await eventually('the first run sees its signal fire', () => firstRunSawAbort);
      await second.start();
      expect(await client.waitForOrchestrationTyped('job', 10_000)).toBe('from the second runtime');
      const history = await client.readExecutionHistory('job', 1);
      expect(history.filter((e) => e.kind === 'ActivityCompleted')).toHaveLength(1);
      expect(history.filter((e) => e.kind === 'OrchestrationCompleted')).toHaveLength(1);
      expect(runs).toBe(1);
    } finally {
      await Promise.all([first.shutdown(100), second.shutdown(1_000)]);
      await providers.destroyProvider?.(provider);
    }
  });
}
