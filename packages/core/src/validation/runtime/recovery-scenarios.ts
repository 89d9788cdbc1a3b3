import { expect, it } from 'vitest';
import { Runtime } from '../../runtime/runtime.js';
import { Client } from '../../client/client.js';
import { ClientError } from '../../client/client-error.js';
import type { Provider } from '../../provider/provider.js';
import { ProviderError } from '../../provider/provider-error.js';
import type { OrchestrationContext } from '../../runtime/replay/orchestration-context.js';
import {
  SCENARIO_OPTIONS,
  eventually,
  withRuntime,
  type RuntimeScenarioProviders,
} from './scenario-harness.js';

/** `provider`, except that calls to any of `methods` first throw whatever `failures` hands out. */
function withFailures(
  provider: Provider,
  methods: readonly ('read' | 'ackWorkItem' | 'ackWorkItems')[],
  failures: () => ProviderError | null,
): Provider {
  return new Proxy(provider, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
      if (!methods.some((method) => method === property)) return bound;
      return async (...args: unknown[]) => {
        const failure = failures();
        if (failure !== null) throw failure;
        return bound(...args);
      };
    },
  });
}

/** Hands out `failure` for the first `times` calls, then nothing. */
function failFirst(times: number, failure: ProviderError): () => ProviderError | null {
  let left = times;
  return () => (left-- > 0 ? failure : null);
}

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
    const options = { ...SCENARIO_OPTIONS, workerConcurrency: 3 };
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
      await eventually('the first runtime runs its activities', () => firstRuns === 3);
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

  it("a client's wait outlives reads that fail with a retryable provider error, and stops at a permanent one", async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerActivity('Echo', async (_ctx, input: string) => input);
        rt.registerOrchestration('EchoOnce', function* (ctx, input: string) {
          const echoed: unknown = yield ctx.scheduleActivity('Echo', input);
          return echoed;
        });
      },
      async ({ provider }) => {
        const failures = failFirst(3, ProviderError.retryable('read', 'connection terminated'));
        const flaky = new Client(withFailures(provider, ['read'], failures));
        await flaky.startOrchestration('echo-once', 'EchoOnce', 'hello');
        expect(await flaky.waitForOrchestrationTyped('echo-once', 10_000)).toBe('hello');
        expect(failures()).toBeNull();

        const waitFailure = (failure: ProviderError, timeoutMs: number): Promise<unknown> =>
          new Client(withFailures(provider, ['read'], () => failure))
            .waitForOrchestration('echo-once', timeoutMs)
            .catch((e: unknown) => e);
        const failure = await waitFailure(
          ProviderError.permanent('read', 'history undecodable'),
          10_000,
        );
        expect(ClientError.isInstance(failure) && failure.kind).toBe('Provider');
        expect(String(failure)).toContain('history undecodable');
        const lastFailure = await waitFailure(
          ProviderError.retryable('read', 'server unreachable'),
          200,
        );
        expect(String(lastFailure)).toContain('server unreachable');
      },
    );
  });

  it('an activity whose ack fails with a retryable error is acknowledged on a retry, not run again', async () => {
    const provider = await providers.createProvider();
    const client = new Client(provider);
    const failures = failFirst(
      2,
      ProviderError.retryable('ack_work_item', 'connection terminated'),
    );
    const runtime = new Runtime(
      withFailures(provider, ['ackWorkItem', 'ackWorkItems'], failures),
      SCENARIO_OPTIONS,
    );
    let runs = 0;
    runtime.registerActivity('Count', async () => {
      runs += 1;
      return runs;
    });
    runtime.registerOrchestration('CountOnce', function* (ctx) {
      const counted: unknown = yield ctx.scheduleActivity('Count');
      return counted;
    });
    try {
      await runtime.start();
      await client.startOrchestration('count-once', 'CountOnce');
      expect(await client.waitForOrchestrationTyped('count-once', 10_000)).toBe(1);
      expect(runs).toBe(1);
      expect(failures()).toBeNull();
    } finally {
      await runtime.shutdown(2_000);
      await providers.destroyProvider?.(provider);
    }
  });
}
