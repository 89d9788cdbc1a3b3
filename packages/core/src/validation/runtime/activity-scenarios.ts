import { expect, it } from 'vitest';
import type { Provider } from '../../provider/provider.js';
import type { ActivityContext } from '../../runtime/activity-context.js';
import { Runtime } from '../../runtime/runtime.js';
import {
  eventually,
  SCENARIO_OPTIONS,
  withRuntime,
  type RuntimeScenarioProviders,
} from './scenario-harness.js';

type BatchFetch = 'fetchOrchestrationItems' | 'fetchWorkItems';

/** `provider` seen through a proxy that notes the most batch fetches of each kind in flight at once. */
function countingBatchFetches(provider: Provider): {
  provider: Provider;
  mostAtOnce: Record<BatchFetch, number>;
} {
  const inFlight: Record<BatchFetch, number> = { fetchOrchestrationItems: 0, fetchWorkItems: 0 };
  const mostAtOnce: Record<BatchFetch, number> = { fetchOrchestrationItems: 0, fetchWorkItems: 0 };
  const counted = new Proxy(provider, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (key !== 'fetchOrchestrationItems' && key !== 'fetchWorkItems') return method.bind(target);
      return async (...args: unknown[]): Promise<unknown> => {
        inFlight[key] += 1;
        mostAtOnce[key] = Math.max(mostAtOnce[key], inFlight[key]);
        try {
          return await method.apply(target, args);
        } finally {
          inFlight[key] -= 1;
        }
      };
    },
  });
  return { provider: counted, mostAtOnce };
}

/**
 * Registers `FanOut`, five `Square` activities of `activityMs` each, joined. `squares` counts the
 * activities running and the most that ever ran at once; `onStart` sees each one's context.
 */
function registerSquareFanOut(
  rt: Runtime,
  activityMs: number,
  squares: { running: number; mostAtOnce: number },
  onStart: (ctx: ActivityContext) => void = () => undefined,
): void {
  rt.registerActivity('Square', async (ctx, n: number) => {
    onStart(ctx);
    squares.running += 1;
    squares.mostAtOnce = Math.max(squares.mostAtOnce, squares.running);
    await new Promise((resolve) => setTimeout(resolve, activityMs));
    squares.running -= 1;
    return n * n;
  });
  rt.registerOrchestration('FanOut', function* (ctx) {
    const results = yield* ctx.all(
      [1, 2, 3, 4, 5].map((n) => ctx.scheduleActivity<number>('Square', n)),
    );
    return results.map((entry) => entry.ok);
  });
}

/** Scenarios about activities: results, failures, retries, cancellation, sessions, tags. */
export function activityScenarios(providers: RuntimeScenarioProviders): void {
  it('an activity result reaches the orchestration and the output is stored as JSON', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerActivity('Echo', async (_ctx, input: unknown) => input);
        rt.registerOrchestration('Chain', function* (ctx, input: { n: number }) {
          const first = yield* ctx.scheduleActivity<{ n: number }>('Echo', input);
          const second = yield* ctx.scheduleActivity<string>('Echo', `n=${first.n}`);
          return { first, second };
        });
      },
      async ({ client }) => {
        await client.startOrchestration('chain', 'Chain', { n: 7 });
        const status = await client.waitForOrchestration('chain', 10_000);
        expect(status).toMatchObject({
          status: 'Completed',
          output: { first: { n: 7 }, second: 'n=7' },
        });
        const raw = await client.getStatus('chain');
        expect(raw.output).toBe('{"first":{"n":7},"second":"n=7"}');
      },
    );
  });

  it('a failing activity is thrown into the orchestration with the duroxide-node error text', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerActivity('Fail', async (_ctx, input: string) => {
          throw new Error(`boom: ${input}`);
        });
        rt.registerOrchestration('Catch', function* (ctx) {
          try {
            yield ctx.scheduleActivity('Fail', 'first');
            return 'not reached';
          } catch (error) {
            return (error as Error).message;
          }
        });
      },
      async ({ client }) => {
        await client.startOrchestration('catch', 'Catch');
        expect(await client.waitForOrchestrationTyped('catch', 10_000)).toBe('boom: first');
      },
    );
  });

  it('an orchestration that throws fails with its error text', async () => {
    await withRuntime(
      providers,
      (rt) => {
        // eslint-disable-next-line require-yield -- finishes in its first turn
        rt.registerOrchestration('Throw', function* () {
          throw new Error('broken on purpose');
        });
      },
      async ({ client }) => {
        await client.startOrchestration('throw', 'Throw');
        const status = await client.waitForOrchestration('throw', 10_000);
        expect(status).toMatchObject({
          status: 'Failed',
          error: 'broken on purpose',
          errorDetails: { type: 'Application', kind: { type: 'OrchestrationFailed' } },
        });
        await expect(client.waitForOrchestrationTyped('throw', 1_000)).rejects.toThrow(
          'broken on purpose',
        );
      },
    );
  });

  it('a retried activity succeeds after failing attempts, with durable backoff timers between them', async () => {
    let calls = 0;
    await withRuntime(
      providers,
      (rt) => {
        rt.registerActivity('Flaky', async () => {
          calls += 1;
          if (calls < 3) throw new Error(`attempt ${calls} failed`);
          return { attempt: calls };
        });
        rt.registerOrchestration('Retry', function* (ctx) {
          return yield* ctx.scheduleActivityWithRetry('Flaky', null, {
            maxAttempts: 3,
            backoff: 'exponential',
          });
        });
      },
      async ({ client }) => {
        await client.startOrchestration('retry', 'Retry');
        expect(await client.waitForOrchestrationTyped('retry', 10_000)).toEqual({ attempt: 3 });
        const kinds = (await client.readExecutionHistory('retry', 1)).map((e) => e.kind);
        expect(kinds.filter((kind) => kind === 'TimerCreated')).toHaveLength(2);
        expect(kinds.filter((kind) => kind === 'ActivityScheduled')).toHaveLength(3);
      },
    );
  });

  it('the losing activity of a race is cancelled: its AbortSignal fires and its result is never recorded', async () => {
    let observed: ActivityContext | undefined;
    await withRuntime(
      providers,
      (rt) => {
        rt.registerActivity('Slow', async (ctx) => {
          observed = ctx;
          await new Promise<void>((resolve) =>
            ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
          );
          return 'too late';
        });
        rt.registerOrchestration('Race', function* (ctx) {
          return yield* ctx.race(ctx.scheduleActivity('Slow'), ctx.scheduleTimer(50));
        });
      },
      async ({ client }) => {
        await client.startOrchestration('race', 'Race');
        expect(await client.waitForOrchestrationTyped('race', 10_000)).toEqual({
          index: 1,
          value: null,
        });
        await eventually(
          'the losing activity sees its signal',
          () => observed?.signal.aborted === true,
        );
        expect(observed?.isCancelled()).toBe(true);
        const history = await client.readExecutionHistory('race', 1);
        const cancel = history.find((e) => e.kind === 'ActivityCancelRequested');
        expect(cancel?.event.kind).toEqual({
          type: 'ActivityCancelRequested',
          reason: 'dropped_future',
        });
        expect(history.some((e) => e.kind === 'ActivityCompleted')).toBe(false);
      },
      { activityCancellationGracePeriodMs: 100 },
    );
  });

  it('a fan-out runs side by side up to workerConcurrency and each completion is recorded once', async () => {
    const squares = { running: 0, mostAtOnce: 0 };
    const seenBy: string[] = [];
    await withRuntime(
      providers,
      (rt) =>
        registerSquareFanOut(rt, 50, squares, (ctx) =>
          seenBy.push(`${ctx.orchestrationName}@${ctx.orchestrationVersion}`),
        ),
      async ({ client }) => {
        await client.startOrchestration('fan-out', 'FanOut');
        expect(await client.waitForOrchestrationTyped('fan-out', 10_000)).toEqual([
          1, 4, 9, 16, 25,
        ]);
        const history = await client.readExecutionHistory('fan-out', 1);
        const completed = history.filter((event) => event.kind === 'ActivityCompleted');
        expect(completed.map((event) => event.sourceEventId).sort()).toEqual([2, 3, 4, 5, 6]);
        expect(seenBy, 'each activity knows its orchestration').toEqual(
          Array(5).fill('FanOut@1.0.0'),
        );
        expect(squares.mostAtOnce).toBe(5);
      },
      { workerConcurrency: 5 },
    );
  });

  it('a runtime has one batch fetch of activities in flight at a time, and its orchestration slots fetch one at a time', async () => {
    const squares = { running: 0, mostAtOnce: 0 };
    // The scenario's own runtime stays idle: the one under test sees the store through a proxy.
    await withRuntime(
      providers,
      () => undefined,
      async ({ client, provider }) => {
        const counted = countingBatchFetches(provider);
        const runtime = new Runtime(counted.provider, {
          ...SCENARIO_OPTIONS,
          orchestrationConcurrency: 4,
          workerConcurrency: 8,
        });
        registerSquareFanOut(runtime, 100, squares);
        await runtime.start();
        try {
          const ids = Array.from({ length: 8 }, (_, i) => `fan-out-${i}`);
          await Promise.all(ids.map((id) => client.startOrchestration(id, 'FanOut')));
          for (const id of ids) {
            expect(await client.waitForOrchestrationTyped(id, 20_000)).toEqual([1, 4, 9, 16, 25]);
          }
        } finally {
          await runtime.shutdown(2_000);
        }
        expect(counted.mostAtOnce.fetchOrchestrationItems).toBeLessThanOrEqual(1);
        expect(counted.mostAtOnce.fetchWorkItems).toBeLessThanOrEqual(1);
        // Forty activities of 100 ms: the worker's eight places fill up, and no more.
        expect(squares.mostAtOnce).toBe(8);
      },
      { orchestrationConcurrency: 0, workerTagFilter: 'none' },
    );
  });

  it('a tagged activity runs only on a worker subscribed to its tag', async () => {
    const ranOn: string[] = [];
    await withRuntime(
      providers,
      (rt) => {
        rt.registerActivity('Work', async (ctx) => {
          ranOn.push(`default:${ctx.tag() ?? 'none'}`);
          return 'default';
        });
        rt.registerOrchestration('Tagged', function* (ctx) {
          const gpu = yield* ctx.scheduleActivity<string>('Work').withTag('gpu');
          const plain = yield* ctx.scheduleActivity<string>('Work');
          return [gpu, plain];
        });
      },
      async ({ client, startRuntime }) => {
        await startRuntime(
          (rt) =>
            rt.registerActivity('Work', async (ctx) => {
              ranOn.push(`gpu:${ctx.tag() ?? 'none'}`);
              return 'gpu';
            }),
          { workerTagFilter: { tags: ['gpu'] }, orchestrationConcurrency: 0 },
        );
        await client.startOrchestration('tagged', 'Tagged');
        expect(await client.waitForOrchestrationTyped('tagged', 10_000)).toEqual([
          'gpu',
          'default',
        ]);
        expect(ranOn).toEqual(['gpu:gpu', 'default:none']);
      },
    );
  });

  it('an activity nobody registered is poisoned after maxAttempts and fails its orchestration', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestration('Missing', function* (ctx) {
          return yield* ctx.scheduleActivity('NoSuchActivity');
        });
      },
      async ({ client }) => {
        await client.startOrchestration('missing', 'Missing');
        const status = await client.waitForOrchestration('missing', 20_000);
        expect(status.status).toBe('Failed');
        expect(status.error).toBe('poison: activity NoSuchActivity#2 exceeded 3 attempts (max 2)');
      },
      { maxAttempts: 2, unregisteredBackoff: { baseDelayMs: 10, maxDelayMs: 20 } },
    );
  });
}
