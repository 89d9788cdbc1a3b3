import { expect, it } from 'vitest';
import { eventually, withRuntime, type RuntimeScenarioProviders } from './scenario-harness.js';

/** Scenarios about children, cancellation, versions, nondeterminism, limits and poison. */
export function lifecycleScenarios(providers: RuntimeScenarioProviders): void {
  it('sub-orchestrations return their output and a failing child fails with its error text', async () => {
    await withRuntime(
      providers,
      (rt) => {
        // eslint-disable-next-line require-yield -- finishes in its first turn
        rt.registerOrchestration('Child', function* (ctx, n: number) {
          if (n < 0) throw new Error(`negative ${n}`);
          return { child: ctx.instanceId, n };
        });
        rt.registerOrchestration('Parent', function* (ctx) {
          const auto = yield* ctx.scheduleSubOrchestration('Child', 1);
          const explicit = yield* ctx.scheduleSubOrchestrationWithId('Child', 'explicit-child', 2);
          let failed = '';
          try {
            yield ctx.scheduleSubOrchestration('Child', -3);
          } catch (error) {
            failed = (error as Error).message;
          }
          return { auto, explicit, failed };
        });
      },
      async ({ client }) => {
        await client.startOrchestration('parent', 'Parent');
        expect(await client.waitForOrchestrationTyped('parent', 10_000)).toEqual({
          auto: { child: 'parent::sub::2', n: 1 },
          explicit: { child: 'explicit-child', n: 2 },
          failed: 'negative -3',
        });
        const tree = await client.getInstanceTree('parent');
        expect([...tree.allIds].sort()).toEqual([
          'explicit-child',
          'parent',
          'parent::sub::2',
          'parent::sub::6',
        ]);
      },
    );
  });

  it('cancelling an instance fails it with the reason and cancels its children', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestration('Forever', function* (ctx) {
          return yield* ctx.waitForEvent('never');
        });
        rt.registerOrchestration('Waiting', function* (ctx) {
          return yield* ctx.all([
            ctx.scheduleSubOrchestrationWithId('Forever', 'forever-child'),
            ctx.scheduleTimer(60_000),
          ]);
        });
      },
      async ({ client }) => {
        await client.startOrchestration('cancel-me', 'Waiting');
        await eventually(
          'the child runs',
          async () => (await client.getStatus('forever-child')).status === 'Running',
        );
        await client.cancelInstance('cancel-me', 'user asked');
        const status = await client.waitForOrchestration('cancel-me', 10_000);
        expect(status).toMatchObject({ status: 'Failed', error: 'canceled: user asked' });
        const child = await client.waitForOrchestration('forever-child', 10_000);
        expect(child).toMatchObject({ status: 'Failed', error: 'canceled: parent canceled' });
      },
    );
  });

  it('a detached start runs independently of the orchestration that started it', async () => {
    await withRuntime(
      providers,
      (rt) => {
        // eslint-disable-next-line require-yield -- finishes in its first turn
        rt.registerOrchestration('Independent', function* (_ctx, input: string) {
          return `independent ${input}`;
        });
        rt.registerOrchestration('Starter', function* (ctx) {
          yield ctx.startOrchestration('Independent', 'detached-1', 'x');
          return 'started';
        });
      },
      async ({ client }) => {
        await client.startOrchestration('starter', 'Starter');
        expect(await client.waitForOrchestrationTyped('starter', 10_000)).toBe('started');
        expect(await client.waitForOrchestrationTyped('detached-1', 10_000)).toBe('independent x');
        expect((await client.getInstanceInfo('detached-1')).parentInstanceId).toBeNull();
      },
    );
  });

  it('a detached start in the turn that continues as new still starts the orchestration', async () => {
    await withRuntime(
      providers,
      (rt) => {
        // eslint-disable-next-line require-yield -- finishes in its first turn
        rt.registerOrchestration('Independent', function* (_ctx, input: string) {
          return `independent ${input}`;
        });
        rt.registerOrchestration('StartThenContinue', function* (ctx, round: number) {
          if (round > 0) return 'continued';
          yield ctx.startOrchestration('Independent', 'detached-can', 'y');
          return yield* ctx.continueAsNew(1);
        });
      },
      async ({ client }) => {
        await client.startOrchestration('starter-can', 'StartThenContinue', 0);
        expect(await client.waitForOrchestrationTyped('starter-can', 10_000)).toBe('continued');
        expect(await client.waitForOrchestrationTyped('detached-can', 10_000)).toBe(
          'independent y',
        );
      },
    );
  });

  it('new instances run the latest version and continueAsNewVersioned moves an instance to another', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestrationVersioned('Versioned', '1.0.0', function* (ctx, input: string) {
          if (input === 'upgrade') return yield* ctx.continueAsNewVersioned('upgraded', '2.0.0');
          return `v1:${ctx.orchestrationVersion}`;
        });
        // eslint-disable-next-line require-yield -- finishes in its first turn
        rt.registerOrchestrationVersioned('Versioned', '2.0.0', function* (ctx, input: string) {
          return `v2:${ctx.orchestrationVersion}:${input}`;
        });
      },
      async ({ client }) => {
        await client.startOrchestration('latest', 'Versioned', 'x');
        expect(await client.waitForOrchestrationTyped('latest', 10_000)).toBe('v2:2.0.0:x');
        await client.startOrchestrationVersioned('pinned', 'Versioned', 'x', '1.0.0');
        expect(await client.waitForOrchestrationTyped('pinned', 10_000)).toBe('v1:1.0.0');
        await client.startOrchestrationVersioned('moved', 'Versioned', 'upgrade', '1.0.0');
        expect(await client.waitForOrchestrationTyped('moved', 10_000)).toBe('v2:2.0.0:upgraded');
      },
    );
  });

  it('code that changed between turns fails the orchestration as nondeterministic, naming both decisions', async () => {
    let changed = false;
    await withRuntime(
      providers,
      (rt) => {
        rt.registerActivity('Echo', async (_ctx, input: unknown) => input);
        rt.registerOrchestration('Changing', function* (ctx) {
          if (changed) yield ctx.scheduleTimer(10);
          else yield ctx.scheduleActivity('Echo', 'first');
          return yield* ctx.waitForEvent('go');
        });
      },
      async ({ client }) => {
        await client.startOrchestration('changing', 'Changing');
        await eventually('the wait is scheduled', async () =>
          (await client.readExecutionHistory('changing', 1)).some(
            (e) => e.kind === 'ExternalSubscribed',
          ),
        );
        changed = true;
        await client.raiseEvent('changing', 'go', null);
        const status = await client.waitForOrchestration('changing', 10_000);
        expect(status.errorDetails).toMatchObject({
          type: 'Configuration',
          kind: { type: 'Nondeterminism' },
        });
        expect(status.error).toMatch(
          /^nondeterministic: schedule mismatch: action=CreateTimer \{ scheduling_event_id: 0, fire_at_ms: \d+ \} vs event=ActivityScheduled \{ name: "Echo", input: "\\"first\\"", session_id: None, tag: None \}$/,
        );
      },
    );
  });

  it('a turn that breaks a runtime limit fails the orchestration with a message naming the limit', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestration('TooManyKeys', function* (ctx) {
          for (let key = 0; key < 151; key += 1) ctx.setValue(`k${key}`, 'v');
          yield ctx.scheduleTimer(1);
        });
        rt.registerOrchestration('LongTag', function* (ctx) {
          yield ctx.scheduleActivity('Any').withTag('t'.repeat(300));
        });
      },
      async ({ client }) => {
        await client.startOrchestration('keys', 'TooManyKeys');
        expect((await client.waitForOrchestration('keys', 10_000)).error).toBe(
          'KV key count (151) exceeds limit (150)',
        );
        await client.startOrchestration('tag', 'LongTag');
        expect((await client.waitForOrchestration('tag', 10_000)).error).toBe(
          "Activity 'Any' tag size (300 bytes) exceeds limit (256 bytes)",
        );
        expect((await client.getQueueDepths()).workerQueue).toBe(0);
      },
    );
  });

  it('an orchestration nobody registered is poisoned after maxAttempts', async () => {
    await withRuntime(
      providers,
      () => undefined,
      async ({ client }) => {
        await client.startOrchestration('unknown', 'NoSuchOrchestration');
        const status = await client.waitForOrchestration('unknown', 20_000);
        expect(status.error).toBe('poison: orchestration unknown exceeded 3 attempts (max 2)');
      },
      { maxAttempts: 2, unregisteredBackoff: { baseDelayMs: 10, maxDelayMs: 20 } },
    );
  });

  it('a client start with a reserved instance id is refused', async () => {
    await withRuntime(
      providers,
      () => undefined,
      async ({ client }) => {
        await expect(client.startOrchestration('a::sub::1', 'X')).rejects.toMatchObject({
          kind: 'InvalidInput',
        });
        await expect(client.startOrchestration('sub::1', 'X')).rejects.toMatchObject({
          kind: 'InvalidInput',
        });
      },
    );
  });
}
