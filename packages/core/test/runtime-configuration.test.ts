import { describe, expect, it } from 'vitest';
import { Client, ClientError, InMemoryProvider, Runtime, type Provider } from '../src/index.js';

describe('runtime configuration', () => {
  it('refuses out-of-range options, naming the option', () => {
    const provider = new InMemoryProvider();
    expect(() => new Runtime(provider, { workerConcurrency: -1 })).toThrow(
      'RuntimeOptions.workerConcurrency must be an integer >= 0, got -1',
    );
    expect(() => new Runtime(provider, { dispatcherPollIntervalMs: Number.NaN })).toThrow(
      'RuntimeOptions.dispatcherPollIntervalMs',
    );
    expect(() => new Runtime(provider, { sessionIdleTimeoutMs: 1_000 })).toThrow(
      'sessionIdleTimeoutMs (1000) must be greater than the worker lock renewal interval',
    );
    expect(() => new Runtime(provider, { workerTagFilter: { tags: [] } })).toThrow(
      'at least one tag',
    );
  });

  it('refuses duplicate, non-monotonic and reserved registrations', () => {
    const runtime = new Runtime(new InMemoryProvider());
    // eslint-disable-next-line require-yield -- registration only
    const body = function* () {
      return 1;
    };
    runtime.registerOrchestrationVersioned('O', '2.0.0', body);
    expect(() => runtime.registerOrchestrationVersioned('O', '2.0.0', body)).toThrow(
      'duplicate orchestration registration: O@2.0.0',
    );
    expect(() => runtime.registerOrchestrationVersioned('O', '1.0.0', body)).toThrow(
      'non-monotonic orchestration version for O: 1.0.0 is not later than existing latest 2.0.0',
    );
    expect(() => runtime.registerOrchestrationVersioned('O', 'v3', body)).toThrow(
      'not a semantic version: "v3"',
    );
    expect(() => runtime.registerActivity('__duroxide_syscall:x', async () => 1)).toThrow(
      "activity name '__duroxide_syscall:x' uses reserved prefix '__duroxide_syscall:'",
    );
    runtime.registerActivity('A', async () => 1);
    expect(() => runtime.registerActivity('A', async () => 1)).toThrow(
      'duplicate activity registration: A@1.0.0',
    );
  });

  it('refuses registrations and a second start once started', async () => {
    const runtime = new Runtime(new InMemoryProvider(), {
      orchestrationConcurrency: 0,
      workerConcurrency: 0,
    });
    await runtime.start();
    await expect(runtime.start()).rejects.toThrow('Runtime.start() must be called before start()');
    expect(() => runtime.registerActivity('Late', async () => 1)).toThrow(
      'must be called before start()',
    );
    await runtime.shutdown();
  });
});

describe('client errors', () => {
  it('report the duroxide ClientError kinds with their texts', async () => {
    const provider = new InMemoryProvider();
    const client = new Client(provider);
    await expect(client.deleteInstance('missing')).rejects.toMatchObject({
      kind: 'InstanceNotFound',
      message: 'Instance missing not found',
    });
    await expect(client.waitForOrchestration('missing', 20)).rejects.toMatchObject({
      kind: 'Timeout',
      message: 'Operation timed out',
    });
    await expect(client.waitForValue('missing', 'k', 20)).rejects.toSatisfy(
      (error: unknown) => ClientError.isInstance(error) && error.isRetryable(),
    );
    expect(await client.getStatus('missing')).toEqual({
      status: 'NotFound',
      customStatusVersion: 0,
    });
    expect(await client.getOrchestrationStats('missing')).toBeNull();
  });

  it('reject management calls on a provider without a management interface', async () => {
    const base = new InMemoryProvider();
    const withoutAdmin: Provider = Object.assign(Object.create(base) as Provider, {
      asManagementCapability: () => null,
    });
    const client = new Client(withoutAdmin);
    expect(client.hasManagementCapability()).toBe(false);
    await expect(client.listAllInstances()).rejects.toMatchObject({
      kind: 'ManagementNotAvailable',
    });
  });

  it('refuse to delete a running instance without force', async () => {
    const provider = new InMemoryProvider();
    const runtime = new Runtime(provider, { dispatcherPollIntervalMs: 10 });
    runtime.registerOrchestration('Wait', function* (ctx) {
      return yield* ctx.waitForEvent('never');
    });
    await runtime.start();
    const client = new Client(provider);
    try {
      await client.startOrchestration('running', 'Wait');
      for (
        let tries = 0;
        (await client.getStatus('running')).status !== 'Running' && tries < 100;
        tries += 1
      ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await expect(client.deleteInstance('running')).rejects.toMatchObject({
        kind: 'InstanceStillRunning',
      });
      expect((await client.deleteInstance('running', true)).instancesDeleted).toBe(1);
    } finally {
      await runtime.shutdown();
    }
  });
});
