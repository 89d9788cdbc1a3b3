import { expect, it } from 'vitest';
import { eventually, withRuntime, type RuntimeScenarioProviders } from './scenario-harness.js';

/** Scenarios about external events, queues, custom status and the key-value store. */
export function eventScenarios(providers: RuntimeScenarioProviders): void {
  it('external events reach waits in order, and an event raised before its wait is dropped', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerActivity('Ready', async () => 'ready');
        rt.registerOrchestration('Approvals', function* (ctx) {
          yield ctx.scheduleActivity('Ready');
          ctx.setCustomStatus('waiting for the first');
          const first = yield* ctx.waitForEvent<{ by: string }>('approve');
          ctx.setCustomStatus('waiting for the second');
          const second = yield* ctx.waitForEvent<string>('approve');
          return { first, second };
        });
      },
      async ({ client }) => {
        await client.raiseEvent('approvals', 'approve', 'too early');
        await client.startOrchestration('approvals', 'Approvals');
        const waiting = await client.waitForStatusChange('approvals', 0, 10, 10_000);
        await client.raiseEvent('approvals', 'approve', { by: 'alice' });
        await client.raiseEvent('approvals', 'unrelated', 1);
        // Each event needs its wait recorded first: one that lands in the same turn as the event
        // for the wait before it finds no open wait and is dropped, as in duroxide.
        await client.waitForStatusChange('approvals', waiting.customStatusVersion, 10, 10_000);
        await client.raiseEvent('approvals', 'approve', 'bob');
        expect(await client.waitForOrchestrationTyped('approvals', 10_000)).toEqual({
          first: { by: 'alice' },
          second: 'bob',
        });
      },
    );
  });

  it('queue messages are delivered first in, first out and unread ones survive continue-as-new', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestration('Mailbox', function* (ctx, state: { seen: string[] }) {
          const message = yield* ctx.dequeueEvent<string>('inbox');
          const seen = [...state.seen, message];
          if (seen.length === 4) return seen;
          return yield* ctx.continueAsNew({ seen });
        });
      },
      async ({ client }) => {
        await client.startOrchestration('mailbox', 'Mailbox', { seen: [] });
        for (const message of ['a', 'b', 'c', 'd'])
          await client.enqueueEvent('mailbox', 'inbox', message);
        expect(await client.waitForOrchestrationTyped('mailbox', 15_000)).toEqual([
          'a',
          'b',
          'c',
          'd',
        ]);
        expect(await client.listExecutions('mailbox')).toEqual([1, 2, 3, 4]);
      },
    );
  });

  it('a dequeue that loses a race to a timer leaves its message for the next dequeue (0.1.31 rule)', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestration('Drain', function* (ctx) {
          const received: unknown[] = [];
          let timeouts = 0;
          while (received.length < 2) {
            const next = yield* ctx.race(ctx.dequeueEvent('q'), ctx.scheduleTimer(20));
            if (next.index === 0) received.push(next.value);
            else timeouts += 1;
            if (timeouts > 200) return 'gave up';
          }
          return received;
        });
      },
      async ({ client }) => {
        await client.startOrchestration('drain', 'Drain');
        await client.enqueueEvent('drain', 'q', 'first');
        await client.enqueueEvent('drain', 'q', 'second');
        expect(await client.waitForOrchestrationTyped('drain', 15_000)).toEqual([
          'first',
          'second',
        ]);
      },
    );
  });

  it('custom status changes are visible to waitForStatusChange and carried across continue-as-new', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestration('Progress', function* (ctx, step: number) {
          if (step === 0) {
            ctx.setCustomStatus('step 0');
            yield ctx.waitForEvent('next');
            return yield* ctx.continueAsNew(1);
          }
          const carried = ctx.getCustomStatus();
          ctx.setCustomStatus('step 1');
          return carried;
        });
      },
      async ({ client }) => {
        await client.startOrchestration('progress', 'Progress', 0);
        const changed = await client.waitForStatusChange('progress', 0, 10, 10_000);
        expect(changed).toMatchObject({ status: 'Running', customStatus: 'step 0' });
        await client.raiseEvent('progress', 'next', null);
        expect(await client.waitForOrchestrationTyped('progress', 10_000)).toBe('step 0');
        const final = await client.getStatus('progress');
        expect(final.customStatus).toBe('step 1');
        expect(final.customStatusVersion).toBeGreaterThan(changed.customStatusVersion);
      },
    );
  });

  it('key-value entries are visible to clients and to other orchestrations', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestration('Source', function* (ctx) {
          ctx.setValue('color', 'blue');
          ctx.setValue('gone', 'x');
          ctx.clearValue('gone');
          yield ctx.waitForEvent('finish');
          return ctx.getKvAllValues();
        });
        rt.registerOrchestration('Reader', function* (ctx) {
          const color = yield* ctx.getValueFromInstance('kv-source', 'color');
          const missing = yield* ctx.getValueFromInstance('kv-source', 'gone');
          return { color, missing };
        });
      },
      async ({ client }) => {
        await client.startOrchestration('kv-source', 'Source');
        expect(await client.waitForValue('kv-source', 'color', 10_000)).toBe('blue');
        expect(await client.getKvAllValues('kv-source')).toEqual({ color: 'blue' });
        await client.startOrchestration('kv-reader', 'Reader');
        expect(await client.waitForOrchestrationTyped('kv-reader', 10_000)).toEqual({
          color: 'blue',
          missing: null,
        });
        await client.raiseEvent('kv-source', 'finish');
        expect(await client.waitForOrchestrationTyped('kv-source', 10_000)).toEqual({
          color: 'blue',
        });
      },
    );
  });

  it('newGuid and utcNow return recorded values that replay unchanged', async () => {
    await withRuntime(
      providers,
      (rt) => {
        rt.registerOrchestration('Deterministic', function* (ctx) {
          const guid = yield* ctx.newGuid();
          const now = yield* ctx.utcNow();
          yield ctx.waitForEvent('go');
          return { guid, now, again: [guid, now] };
        });
      },
      async ({ client }) => {
        await client.startOrchestration('det', 'Deterministic');
        await eventually('both syscalls completed', async () => {
          const history = await client.readExecutionHistory('det', 1);
          return history.filter((e) => e.kind === 'ActivityCompleted').length === 2;
        });
        await client.raiseEvent('det', 'go');
        const output = await client.waitForOrchestrationTyped<{
          guid: string;
          now: number;
          again: [string, number];
        }>('det', 10_000);
        expect(output.guid).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );
        expect(typeof output.now).toBe('number');
        expect(output.again).toEqual([output.guid, output.now]);
      },
    );
  });
}
