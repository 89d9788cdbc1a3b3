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

  it('a runtime shut down with a batch of activities running hands every one of them over', async () => {
    let firstRuns = 0;
    const provider = await providers.createProvider();
    const client = new Client(provider);
    const fanOut = function* (ctx: OrchestrationContext): Generator<unknown, unknown, unknown> {
      const results = yield* ctx.all([1, 2, 3].map((n) => ctx.scheduleActivity<number>('Work', n)));
      return results.map((entry) => entry.ok);
    };
    const options = { ...SCENARIO_OPTIONS, workerConcurrency: 1, workerBatchSize: 3 };
    const first = new Runtime(provider, options);
    first.registerActivity('Work', async (ctx) => {
      firstRuns += 1;
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      return -1;
    });
    first.registerOrchestration('FanOut', fanOut);
    const second = new Runtime(provider, options);
    second.registerActivity('Work', async (_ctx, n: number) => n * 10);
    second.registerOrchestration('FanOut', fanOut);
    try {
      await first.start();
      await client.startOrchestration('fan-out', 'FanOut');
      const atOnce = provider.fetchWorkItems === undefined ? 1 : 3;
      await eventually('the first runtime runs its activities', () => firstRuns === atOnce);
      await first.shutdown(100);
      await second.start();
      expect(await client.waitForOrchestrationTyped('fan-out', 10_000)).toEqual([10, 20, 30]);
      const history = await client.readExecutionHistory('fan-out', 1);
      expect(history.filter((e) => e.kind === 'ActivityCompleted')).toHaveLength(3);
    } finally {
      await Promise.all([first.shutdown(100), second.shutdown(1_000)]);
      await providers.destroyProvider?.(provider);
    }
  });
}
