import { expect } from 'vitest';
import { Client } from '../../client/client.js';
import type { Event } from '../../model/event.js';
import type { WorkItem } from '../../model/work-item.js';
import type { OrchestrationContext } from '../../runtime/replay/orchestration-context.js';
import { eventWithId, fetchOrchestration, sleep, startItem } from '../support/fixtures.js';
import {
  runtimeWith,
  seed,
  seedContinuedAsNew,
  started,
  successorStart,
  type Gen,
} from './seeding.js';
import type { ValidationRun } from '../validation-group.js';

/** The race_replay validations about starts and continue-as-new successors. @internal */
export const continueAsNewValidations = {
  duplicate_start_preserves_pinned_handler: async ({ newProvider }) => {
    for (const duplicateName of ['Original', 'WrongHandler']) {
      const provider = await newProvider();
      const instance = `provider-pinned-handler-${duplicateName}`;
      await seed(
        provider,
        instance,
        [
          started(instance, 'Original', '"original-input"'),
          eventWithId(2, instance, 1, null, {
            type: 'ActivityScheduled',
            name: 'tick',
            input: '"v1"',
          }),
        ],
        [
          {
            ...startItem(instance),
            orchestration: duplicateName,
            input: '"wrong-input"',
            version: null,
          },
          { type: 'ActivityCompleted', instance, executionId: 1, id: 2, result: '"ok"' },
        ],
        { status: 'Running', orchestrationName: 'Original', orchestrationVersion: '1.0.0' },
      );
      const runtime = await runtimeWith(provider, {}, (rt) => {
        rt.registerOrchestrationVersioned('Original', '1.0.0', function* (ctx, input: string): Gen {
          yield ctx.scheduleActivity('tick', 'v1');
          return `v1:${input}`;
        });
        rt.registerOrchestrationVersioned('Original', '2.0.0', function* (ctx): Gen {
          yield ctx.scheduleActivity('tick', 'v2');
          return 'v2';
        });
        rt.registerOrchestration('WrongHandler', function* (ctx): Gen {
          yield ctx.scheduleActivity('tick', 'wrong');
          return 'wrong';
        });
      });
      try {
        const result = await new Client(provider).waitForOrchestration(instance, 10_000);
        expect(result, 'duplicate client start must be inert').toMatchObject({
          status: 'Completed',
          output: 'v1:original-input',
        });
      } finally {
        await runtime.shutdown();
      }
    }
  },

  continue_as_new_unregistered_backoff: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'provider-can-unregistered-backoff';
    await seedContinuedAsNew(provider, instance, 'RollingSuccessor', [['q', '"carried"']]);
    const oldRuntime = await runtimeWith(
      provider,
      {
        orchestrationConcurrency: 1,
        unregisteredBackoff: { baseDelayMs: 2_000, maxDelayMs: 2_000 },
      },
      () => undefined,
    );
    const deadline = Date.now() + 10_000;
    let hidden = false;
    while (!hidden && Date.now() < deadline) {
      await sleep(20);
      const competing = await fetchOrchestration(provider);
      if (!competing) {
        hidden = true;
        break;
      }
      expect(competing.item.messages.some((m) => m.type === 'ContinueAsNew')).toBe(true);
      await provider.abandonOrchestrationItem(competing.lockToken, null, true);
    }
    await oldRuntime.shutdown();
    expect(hidden, 'unregistered runtime must fetch and hide the start').toBe(true);
    expect(
      await fetchOrchestration(provider),
      'start must be delayed by unregistered-handler backoff, not merely locked',
    ).toBeNull();
    expect(await provider.readWithExecution(instance, 1)).toHaveLength(2);
    const client = new Client(provider);
    await client.enqueueEvent(instance, 'q', 'late');
    const newRuntime = await runtimeWith(provider, {}, (rt) =>
      rt.registerOrchestration('RollingSuccessor', function* (ctx: OrchestrationContext): Gen {
        expect(ctx.executionId).toBe(2);
        const first = yield* ctx.dequeueEvent<string>('q');
        const second = yield* ctx.dequeueEvent<string>('q');
        return `${first},${second}`;
      }),
    );
    try {
      const result = await client.waitForOrchestration(instance, 10_000);
      expect(result, 'successor and window input must survive rolling-node backoff').toMatchObject({
        status: 'Completed',
        output: 'carried,late',
      });
    } finally {
      await newRuntime.shutdown();
    }
  },

  continue_as_new_poisoned_successor_is_own_execution: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'provider-can-poisoned-successor';
    await seedContinuedAsNew(provider, instance, 'PoisonedSuccessor', []);
    const runtime = await runtimeWith(
      provider,
      {
        maxAttempts: 1,
        orchestrationConcurrency: 1,
        unregisteredBackoff: { baseDelayMs: 20, maxDelayMs: 20 },
      },
      () => undefined,
    );
    const client = new Client(provider);
    try {
      const result = await client.waitForOrchestration(instance, 10_000);
      expect(result.errorDetails?.type, 'poison must end the successor').toBe('Poison');
      await client.enqueueEvent(instance, 'q', 'late');
      await sleep(500);
    } finally {
      await runtime.shutdown();
    }
    const previous = await provider.readWithExecution(instance, 1);
    expect(previous[previous.length - 1]?.kind.type).toBe('OrchestrationContinuedAsNew');
    const successor = await provider.read(instance);
    expect(successor, 'the poisoned successor must be the latest execution').toEqual(
      await provider.readWithExecution(instance, 2),
    );
    expect(successor.map((e) => e.kind.type)).toEqual([
      'OrchestrationStarted',
      'OrchestrationFailed',
    ]);
    const failed = successor[1]?.kind;
    expect(failed?.type === 'OrchestrationFailed' && failed.details.type).toBe('Poison');
    expect(
      await fetchOrchestration(provider),
      'a late input to the failed successor is acknowledged, not left waiting',
    ).toBeNull();
  },

  continue_as_new_duplicate_start: async ({ newProvider }) => {
    const combinations = [
      ['0.1.30', false],
      ['0.1.30', true],
      ['0.1.31', false],
      ['0.1.31', true],
    ] as const;
    for (const [stamp, collision] of combinations) {
      const provider = await newProvider();
      const parent = 'provider-can-duplicate-parent';
      const instance = `${parent}::can-child`;
      const stamped = (at: string, name: string): Event => ({
        ...started(at, name, '""'),
        duroxideVersion: stamp,
      });
      if (collision) {
        await seed(
          provider,
          parent,
          [
            stamped(parent, 'CollisionParent'),
            eventWithId(2, parent, 1, null, {
              type: 'SubOrchestrationScheduled',
              name: 'Transition',
              instance: 'can-child',
              input: '"duplicate"',
            }),
          ],
          [],
          { status: 'Running' },
        );
      }
      await seed(
        provider,
        instance,
        [
          stamped(instance, 'Transition'),
          eventWithId(2, instance, 1, null, {
            type: 'OrchestrationContinuedAsNew',
            input: '"next"',
          }),
        ],
        [
          {
            ...startItem(instance),
            orchestration: 'WrongHandler',
            input: '"duplicate"',
            version: null,
            ...(collision ? { parentInstance: parent, parentId: 2, parentExecutionId: 1 } : {}),
          },
          successorStart(instance, 'Transition', [['q', '"carried"']]),
          { type: 'QueueMessage', instance, name: 'q', data: '"late"' },
        ],
        { status: 'ContinuedAsNew' },
      );
      const runtime = await runtimeWith(provider, {}, (rt) => {
        rt.registerOrchestration('Transition', function* (ctx): Gen {
          expect(ctx.executionId).toBe(2);
          const first = yield* ctx.dequeueEvent<string>('q');
          const second = yield* ctx.dequeueEvent<string>('q');
          return `${first},${second}`;
        });
        rt.registerOrchestration('CollisionParent', function* (ctx): Gen {
          try {
            const value: unknown = yield ctx.scheduleSubOrchestrationWithId(
              'Transition',
              'can-child',
              'duplicate',
            );
            return `collision unexpectedly resolved: ${String(value)}`;
          } catch (error) {
            return (error as Error).message;
          }
        });
      });
      const client = new Client(provider);
      try {
        const result = await client.waitForOrchestration(instance, 10_000);
        expect(result, 'CAN successor must not livelock behind duplicate start').toMatchObject({
          status: 'Completed',
          output: 'carried,late',
        });
        if (collision) {
          const parentResult = await client.waitForOrchestration(parent, 10_000);
          expect(parentResult.status, 'colliding parent must receive a notification').toBe(
            'Completed',
          );
          expect(parentResult.output).toContain('already exists');
          expect(
            parentResult.output,
            'collision notification must describe an existing logical instance',
          ).not.toContain('is terminal');
        }
      } finally {
        await runtime.shutdown();
      }
      expect(
        await provider.readWithExecution(instance, 1),
        'duplicate start must not mutate old recorded history',
      ).toHaveLength(2);
      const next = (await provider.readWithExecution(instance, 2))[0]?.kind;
      expect(next).toMatchObject({
        type: 'OrchestrationStarted',
        name: 'Transition',
        input: '"next"',
      });
    }
  },

  // The Rust shapes `can-held` and `can-held-nonprefix` race a dequeue by reference
  // (`select2(&mut held, ..)`): it loses, stays subscribed and is never polled again, so it
  // keeps its place in the queue without reading, and continue-as-new carries what it would
  // have read. No duro task can be in that state. A descriptor schedules nothing until it is
  // yielded, and each yield builds a new task (yielding `held` again subscribes anew); a race
  // drops its losers at once; `all` polls every pending member on every poll; continue-as-new
  // cannot be raced or joined. duroxide-node, whose descriptors these are, cannot hold a task
  // either. Written in duro, the two shapes are `can` and `can-drain` below.
  continue_as_new_queue_race_replay: async ({ newProvider }) => {
    for (const shape of ['can', 'can-drain'] as const) {
      const provider = await newProvider();
      const instance = `provider-combined-race-${shape}`;
      const incoming: WorkItem[] = [
        { type: 'TimerFired', instance, executionId: 1, id: 3, fireAtMs: 1000 },
        { type: 'QueueMessage', instance, name: 'q', data: '"m1"' },
      ];
      if (shape === 'can-drain')
        incoming.push({ type: 'QueueMessage', instance, name: 'q', data: '"m2"' });
      await seed(
        provider,
        instance,
        [
          {
            ...started(instance, 'CombinedRace', JSON.stringify(shape)),
            duroxideVersion: '0.1.31',
          },
          eventWithId(2, instance, 1, null, { type: 'QueueSubscribed', name: 'q' }),
          eventWithId(3, instance, 1, null, { type: 'TimerCreated', fireAtMs: 1000 }),
        ],
        incoming,
        { orchestrationName: 'CombinedRace', orchestrationVersion: '1.0.0' },
      );
      const runtime = await runtimeWith(provider, { dispatcherPollIntervalMs: 5 }, (rt) =>
        rt.registerOrchestration('CombinedRace', function* (ctx, input: string): Gen {
          if (ctx.executionId > 1) return yield* ctx.dequeueEvent('q');
          yield ctx.race(ctx.dequeueEvent('q'), ctx.scheduleTimer(10));
          if (input === 'can-drain') yield ctx.dequeueEvent('q');
          return yield* ctx.continueAsNew(input);
        }),
      );
      try {
        const result = await new Client(provider).waitForOrchestration(instance, 30_000);
        expect(result, `${shape}: unread CAN arrivals`).toMatchObject({
          status: 'Completed',
          output: shape === 'can-drain' ? 'm2' : 'm1',
        });
      } finally {
        await runtime.shutdown();
      }
    }
  },
} satisfies Record<string, ValidationRun>;
