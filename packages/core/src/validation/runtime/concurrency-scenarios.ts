import { describe, expect, it } from 'vitest';
import type { Provider } from '../../provider/provider.js';
import { Runtime } from '../../runtime/runtime.js';
import {
  DEFAULT_OPTIONS,
  OPTION_SETS,
  withRuntime,
  type RuntimeScenarioProviders,
} from './scenario-harness.js';

/** Activities count themselves in and out; `mostAtOnce` is the most that ever ran together. */
class ConcurrencyProbe {
  private running = 0;
  mostAtOnce = 0;

  /** Runs `body` counted as one running activity. */
  async count<T>(body: () => Promise<T>): Promise<T> {
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    try {
      return await body();
    } finally {
      this.running -= 1;
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers `Spread`: a fan-out of `width` probed activities of 20 ms, then one more. */
function registerSpread(runtime: Runtime, probe: ConcurrencyProbe): void {
  runtime.registerActivity('Probed', (_ctx, n: number) =>
    probe.count(() => sleep(20).then(() => n)),
  );
  runtime.registerOrchestration('Spread', function* (ctx, width: number) {
    const fanned = yield* ctx.all(
      Array.from({ length: width }, (_, n) => ctx.scheduleActivity<number>('Probed', n)),
    );
    const last = yield* ctx.scheduleActivity<number>('Probed', width);
    return fanned.reduce((sum, entry) => sum + (entry.ok ?? 0), last);
  });
}

/**
 * `provider`, except that renewing an activity's lock reports success without renewing it: a
 * worker frozen past its leases, as far as the store can tell. Only an activity that runs longer
 * than half its lock ever renews.
 */
function withLapsingActivityLocks(provider: Provider): Provider {
  return new Proxy(provider, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'renewWorkItemLock') return () => Promise.resolve();
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}

/**
 * Scenarios about `workerConcurrency`: the most activities a runtime runs at once, however they
 * were claimed, as in duroxide-node.
 */
export function concurrencyScenarios(providers: RuntimeScenarioProviders): void {
  describe.each(OPTION_SETS)('%s', (_options, base) => {
    it.each([1, 3, 50])(
      'with workerConcurrency %i no more activities than that run at once',
      async (workerConcurrency) => {
        const probe = new ConcurrencyProbe();
        await withRuntime(
          providers,
          (runtime) => registerSpread(runtime, probe),
          async ({ client }) => {
            const widths = [1, 2, 3, 4, 5, 6, 7, 8, 12, 1, 2, 3];
            const ids = widths.map((_, i) => `spread-${i}`);
            await Promise.all(
              ids.map((id, i) => client.startOrchestration(id, 'Spread', widths[i])),
            );
            for (const [i, id] of ids.entries()) {
              const width = widths[i] ?? 0;
              const expected = (width * (width - 1)) / 2 + width;
              expect(await client.waitForOrchestrationTyped(id, 30_000)).toBe(expected);
            }
          },
          { workerConcurrency },
          base,
        );
        expect(probe.mostAtOnce).toBeLessThanOrEqual(workerConcurrency);
        // The workload always has more runnable activities than three, so a cap of one or three
        // is reached, and fifty lets far more than three run together.
        if (workerConcurrency <= 3) expect(probe.mostAtOnce).toBe(workerConcurrency);
        else expect(probe.mostAtOnce).toBeGreaterThan(3);
      },
    );
  });

  it('an activity delivered again while its first delivery still runs counts twice', async () => {
    const probe = new ConcurrencyProbe();
    let secondDeliveryStarted: () => void = () => undefined;
    const secondDelivery = new Promise<void>((resolve) => {
      secondDeliveryStarted = resolve;
    });
    await withRuntime(
      providers,
      () => undefined,
      async ({ client, provider }) => {
        const runtime = new Runtime(withLapsingActivityLocks(provider), {
          ...DEFAULT_OPTIONS,
          workerConcurrency: 2,
          workerLockTimeoutMs: 1_000,
        });
        registerSpread(runtime, probe);
        runtime.registerActivity('Frozen', (ctx) =>
          probe.count(async () => {
            if (ctx.attempt > 1) secondDeliveryStarted();
            // The first delivery outlives its lease, until the second one has started.
            else await Promise.race([secondDelivery, sleep(20_000)]);
            return ctx.attempt;
          }),
        );
        runtime.registerOrchestration('Redelivered', function* (ctx) {
          const results = yield* ctx.all([
            ctx.scheduleActivity<number>('Frozen'),
            ...[1, 2, 3, 4].map((n) => ctx.scheduleActivity<number>('Probed', n)),
          ]);
          return results.map((entry) => entry.ok);
        });
        await runtime.start();
        try {
          await client.startOrchestration('redelivered', 'Redelivered');
          expect(await client.waitForOrchestrationTyped('redelivered', 30_000)).toEqual([
            2, 1, 2, 3, 4,
          ]);
        } finally {
          await runtime.shutdown(2_000);
        }
      },
      // The scenario's own runtime stays idle.
      { orchestrationConcurrency: 0, workerTagFilter: 'none' },
    );
    // Both deliveries ran together, and nothing else beside them.
    expect(probe.mostAtOnce).toBe(2);
  });

  it('a cancelled activity that ignores its signal keeps its place until it returns', async () => {
    const probe = new ConcurrencyProbe();
    await withRuntime(
      providers,
      (runtime) => {
        runtime.registerActivity('Stubborn', () => probe.count(() => sleep(1_500)));
        runtime.registerActivity('Next', () => probe.count(() => sleep(5).then(() => 'next')));
        runtime.registerOrchestration('Abandoned', function* (ctx) {
          yield ctx.race(ctx.scheduleActivity('Stubborn'), ctx.scheduleTimer(10));
          return yield* ctx.scheduleActivity<string>('Next');
        });
      },
      async ({ client }) => {
        await client.startOrchestration('abandoned', 'Abandoned');
        expect(await client.waitForOrchestrationTyped('abandoned', 20_000)).toBe('next');
      },
      {
        workerConcurrency: 1,
        // Cancellation is seen at the next lock renewal, half a second in; the grace period
        // ends long before the stubborn activity returns.
        workerLockTimeoutMs: 1_000,
        activityCancellationGracePeriodMs: 50,
      },
      DEFAULT_OPTIONS,
    );
    expect(probe.mostAtOnce).toBe(1);
  });

  it('activities a fetch brings back after handed-over ones filled the room wait for a place instead of going back', async () => {
    const probe = new ConcurrencyProbe();
    let abandoned = 0;
    let lateFetchArrived: () => void = () => undefined;
    const lateFetch = new Promise<void>((resolve) => {
      lateFetchArrived = resolve;
    });
    await withRuntime(
      providers,
      () => undefined,
      async ({ client, provider }) => {
        // Counts give-backs, and tells when a fetch brought back the second instance's work.
        const watched = new Proxy(provider, {
          get(target, property) {
            const value: unknown = Reflect.get(target, property, target);
            if (typeof value !== 'function') return value;
            const method = (value as (...args: unknown[]) => unknown).bind(target);
            if (property === 'abandonWorkItem') {
              return (...args: unknown[]) => {
                abandoned += 1;
                return method(...args);
              };
            }
            if (property !== 'fetchWorkItems') return method;
            return async (...args: unknown[]) => {
              const fetched = (await method(...args)) as { item: { instance?: string } }[];
              // Only once the runtime has placed what the fetch brought back.
              if (fetched.some(({ item }) => item.instance === 'second')) {
                setTimeout(lateFetchArrived, 0);
              }
              return fetched;
            };
          },
        });
        const runtime = new Runtime(watched, { ...DEFAULT_OPTIONS, workerConcurrency: 4 });
        let firstRunning: () => void = () => undefined;
        const firstStarted = new Promise<void>((resolve) => {
          firstRunning = resolve;
        });
        // The first instance's three activities are handed over to the idle worker, whose
        // fetch still waits asking for four; they hold their places until that fetch brings
        // back the second instance's three, which the one free place cannot take all of.
        runtime.registerActivity('Holding', (_ctx, n: number) =>
          probe.count(async () => {
            firstRunning();
            await Promise.race([lateFetch, sleep(10_000)]);
            return n;
          }),
        );
        runtime.registerActivity('Quick', (_ctx, n: number) =>
          probe.count(() => sleep(5).then(() => n)),
        );
        for (const [name, activity] of [
          ['HoldingThree', 'Holding'],
          ['QuickThree', 'Quick'],
        ] as const) {
          runtime.registerOrchestration(name, function* (ctx) {
            const results = yield* ctx.all(
              [1, 2, 3].map((n) => ctx.scheduleActivity<number>(activity, n)),
            );
            return results.map((entry) => entry.ok);
          });
        }
        await runtime.start();
        try {
          await client.startOrchestration('first', 'HoldingThree');
          await firstStarted;
          await client.startOrchestration('second', 'QuickThree');
          expect(await client.waitForOrchestrationTyped('second', 20_000)).toEqual([1, 2, 3]);
          expect(await client.waitForOrchestrationTyped('first', 20_000)).toEqual([1, 2, 3]);
        } finally {
          await runtime.shutdown(2_000);
        }
      },
      // The scenario's own runtime stays idle.
      { orchestrationConcurrency: 0, workerTagFilter: 'none' },
    );
    expect(probe.mostAtOnce).toBeLessThanOrEqual(4);
    expect(abandoned).toBe(0);
  });
}
