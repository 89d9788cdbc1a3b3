import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  Client,
  InMemoryProvider,
  Runtime,
  type OrchestrationContext,
  type ScheduledTask,
} from '../src/index.js';

describe('typed orchestration API', () => {
  it('types yield* results from the descriptor and keeps descriptors plain JSON', () => {
    const runtime = new Runtime(new InMemoryProvider());
    runtime.registerOrchestration(
      'Typed',
      function* (ctx: OrchestrationContext, input: { n: number }) {
        const text = yield* ctx.scheduleActivity<string>('A', input.n);
        expectTypeOf(text).toEqualTypeOf<string>();
        const now = yield* ctx.utcNow();
        expectTypeOf(now).toEqualTypeOf<number>();
        const guid = yield* ctx.newGuid();
        expectTypeOf(guid).toEqualTypeOf<string>();
        const both = yield* ctx.all([ctx.scheduleActivity<number>('B'), ctx.scheduleTimer(1)]);
        expectTypeOf(both[0].ok).toEqualTypeOf<number | undefined>();
        const winner = yield* ctx.race(ctx.waitForEvent<'go'>('go'), ctx.scheduleTimer(5));
        if (winner.index === 0) expectTypeOf(winner.value).toEqualTypeOf<'go'>();
        else expectTypeOf(winner.value).toEqualTypeOf<null>();
        return text.length;
      },
    );
    expectTypeOf<ReturnType<OrchestrationContext['scheduleTimer']>>().toEqualTypeOf<
      ScheduledTask<null>
    >();
  });

  it('withTag tags the descriptor it is called on and returns that same descriptor', async () => {
    const provider = new InMemoryProvider();
    const runtime = new Runtime(provider, { dispatcherPollIntervalMs: 10, workerConcurrency: 0 });
    let same = false;
    let tag: unknown;
    runtime.registerOrchestration('Tagged', function* (ctx) {
      const descriptor = ctx.scheduleActivity('A', null);
      same = descriptor.withTag('gpu') === descriptor;
      tag = descriptor.tag;
      return yield* ctx.startOrchestration('Tagged', 'tagged-child');
    });
    await runtime.start();
    try {
      await new Client(provider).startOrchestration('tagged', 'Tagged');
      await new Client(provider).waitForOrchestration('tagged', 10_000);
    } finally {
      await runtime.shutdown();
    }
    expect(same).toBe(true);
    expect(tag).toBe('gpu');
  });

  it('writes a descriptor as duroxide-node JSON, without withTag or the iterator', async () => {
    const provider = new InMemoryProvider();
    const runtime = new Runtime(provider, { dispatcherPollIntervalMs: 10, workerConcurrency: 0 });
    let json = '';
    runtime.registerOrchestration('Json', function* (ctx) {
      json = JSON.stringify(ctx.scheduleActivity('A', { x: 1 }, { sessionId: 's' }).withTag('gpu'));
      return yield* ctx.startOrchestration('Json', 'json-child');
    });
    await runtime.start();
    try {
      await new Client(provider).startOrchestration('json', 'Json');
      await new Client(provider).waitForOrchestration('json', 10_000);
    } finally {
      await runtime.shutdown();
    }
    expect(JSON.parse(json)).toEqual({
      type: 'activity',
      name: 'A',
      input: '{"x":1}',
      sessionId: 's',
      tag: 'gpu',
    });
  });
});
