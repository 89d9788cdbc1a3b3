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

/** `provider`, except that its history reads fail with the errors `failures` hands out. */
function withFailingReads(provider: Provider, failures: () => ProviderError | null): Provider {
  return new Proxy(provider, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'read') {
        return async (instanceId: string) => {
          const failure = failures();
          if (failure !== null) throw failure;
          return target.read(instanceId);
        };
      }
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
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
        let retryableLeft = 3;
        const flaky = new Client(
          withFailingReads(provider, () =>
            retryableLeft-- > 0 ? ProviderError.retryable('read', 'connection terminated') : null,
          ),
        );
        await flaky.startOrchestration('echo-once', 'EchoOnce', 'hello');
        expect(await flaky.waitForOrchestrationTyped('echo-once', 10_000)).toBe('hello');
        expect(retryableLeft).toBeLessThan(0);

        const broken = new Client(
          withFailingReads(provider, () => ProviderError.permanent('read', 'history undecodable')),
        );
        const failure: unknown = await broken
          .waitForOrchestration('echo-once', 10_000)
          .catch((e: unknown) => e);
        expect(ClientError.isInstance(failure) && failure.kind).toBe('Provider');
        expect(String(failure)).toContain('history undecodable');

        const down = new Client(
          withFailingReads(provider, () => ProviderError.retryable('read', 'server unreachable')),
        );
        const lastFailure: unknown = await down
          .waitForOrchestration('echo-once', 200)
          .catch((e: unknown) => e);
        expect(String(lastFailure)).toContain('server unreachable');
      },
    );
  });
}
