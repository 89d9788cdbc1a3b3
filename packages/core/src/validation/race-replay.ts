import { expect } from 'vitest';
import { Client } from '../client/client.js';
import type { Event } from '../model/event.js';
import type { WorkItem } from '../model/work-item.js';
import type { ExecutionMetadata } from '../provider/execution-metadata.js';
import type { Provider } from '../provider/provider.js';
import type { Logger } from '../runtime/logger.js';
import type { OrchestrationContext } from '../runtime/replay/orchestration-context.js';
import { ReplayEngine } from '../runtime/replay/replay-engine.js';
import { Runtime } from '../runtime/runtime.js';
import type { RuntimeOptions } from '../runtime/runtime-options.js';
import { eventWithId, expectPresent, fetchOrchestration, sleep, startItem } from './fixtures.js';
import { defineValidationGroup } from './validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/race_replay.rs`: a real runtime over the
// provider, on seeded histories. Payloads are JSON text here (duro encodes every input and
// result as JSON), where the Rust seeds use raw strings.

const quiet = (): void => undefined;
const OPTIONS: RuntimeOptions = {
  dispatcherPollIntervalMs: 10,
  dispatcherLongPollTimeoutMs: 100,
  logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
};

type Gen = Generator<unknown, unknown, unknown>;

/** Seeds an instance: fetches its start and acks `history`, `orchestratorItems` and `metadata`. */
async function seed(
  provider: Provider,
  instance: string,
  history: Event[],
  orchestratorItems: WorkItem[],
  metadata: ExecutionMetadata,
): Promise<void> {
  await provider.enqueueForOrchestrator(startItem(instance), null);
  const fetched = expectPresent(await fetchOrchestration(provider), 'visible seed');
  await provider.ackOrchestrationItem(
    fetched.lockToken,
    1,
    history,
    [],
    orchestratorItems,
    metadata,
    [],
  );
}

function started(instance: string, name: string, input: string): Event {
  return eventWithId(1, instance, 1, null, {
    type: 'OrchestrationStarted',
    name,
    version: '1.0.0',
    input,
    parentInstance: null,
    parentId: null,
  });
}

/** A predecessor that continued-as-new, with its successor's start queued in the same ack. */
async function seedContinuedAsNew(
  provider: Provider,
  instance: string,
  name: string,
  carried: Array<[string, string]>,
): Promise<void> {
  await seed(
    provider,
    instance,
    [
      started(instance, name, '"old"'),
      eventWithId(2, instance, 1, null, { type: 'OrchestrationContinuedAsNew', input: '"next"' }),
    ],
    [
      {
        type: 'ContinueAsNew',
        instance,
        orchestration: name,
        input: '"next"',
        version: '1.0.0',
        carryForwardEvents: carried,
      },
    ],
    { status: 'ContinuedAsNew' },
  );
}

async function runtimeWith(
  provider: Provider,
  options: RuntimeOptions,
  register: (runtime: Runtime) => void,
): Promise<Runtime> {
  const runtime = new Runtime(provider, { ...OPTIONS, ...options });
  register(runtime);
  await runtime.start();
  return runtime;
}

/** Runtime-level queue cancellation and event-version preservation checks. */
export const raceReplay = defineValidationGroup('race_replay', {
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

  queue_race_cancellation_replay: async ({ newProvider }) => {
    for (const shape of ['q1', 'q2', 'q6'] as const) {
      const provider = await newProvider();
      const instance = `provider-queue-race-${shape}`;
      const at = (id: number, source: number | null, kind: Event['kind']): Event =>
        eventWithId(id, instance, 1, source, kind);
      const sub = (id: number): Event => at(id, null, { type: 'QueueSubscribed', name: 'q' });
      const arrival = (id: number, data: string): Event =>
        at(id, null, { type: 'QueueEventDelivered', name: 'q', data });
      const dropped = (id: number, source: number): Event =>
        at(id, source, { type: 'QueueSubscriptionCancelled', reason: 'dropped_future' });
      const timer = (id: number, fireAtMs: number): Event =>
        at(id, null, { type: 'TimerCreated', fireAtMs });
      const history: Event[] = [
        { ...started(instance, 'QueueRace', shape), duroxideVersion: '0.1.31' },
      ];
      if (shape === 'q1') {
        history.push(
          sub(2),
          sub(3),
          timer(4, 1000),
          at(5, 4, { type: 'TimerFired', fireAtMs: 1000 }),
        );
        history.push(
          arrival(6, 'first'),
          arrival(7, 'second'),
          sub(8),
          sub(9),
          dropped(10, 2),
          dropped(11, 3),
        );
      } else if (shape === 'q2') {
        history.push(
          sub(2),
          sub(3),
          timer(4, 1000),
          arrival(5, 'first'),
          arrival(6, 'second'),
          sub(7),
          dropped(8, 3),
        );
      } else {
        history.push(
          sub(2),
          timer(3, 1000),
          timer(4, 1100),
          at(5, 4, { type: 'TimerFired', fireAtMs: 1100 }),
        );
        history.push(arrival(6, 'first'), sub(7), dropped(8, 2));
      }
      const checkpointId = history.length + 1;
      const expected = shape === 'q6' ? 'first' : 'first,second';
      history.push(
        at(checkpointId, null, {
          type: 'ActivityScheduled',
          name: 'checkpoint',
          input: JSON.stringify(expected),
        }),
      );
      await seed(
        provider,
        instance,
        history,
        [{ type: 'ActivityCompleted', instance, executionId: 1, id: checkpointId, result: '"ok"' }],
        { orchestrationName: 'QueueRace', orchestrationVersion: '1.0.0' },
      );
      expect(
        await provider.readWithExecution(instance, 1),
        'provider must preserve full event metadata and pinned semantic version',
      ).toEqual(history);
      const runtime = await runtimeWith(provider, { dispatcherPollIntervalMs: 5 }, (rt) =>
        rt.registerOrchestration('QueueRace', function* (ctx, input: string): Gen {
          const values: string[] = [];
          if (input === 'q6') {
            yield ctx.race(
              ctx.race(ctx.dequeueEvent('q'), ctx.scheduleTimer(10)),
              ctx.scheduleTimer(100),
            );
            values.push(yield* ctx.dequeueEvent<string>('q'));
          } else {
            const won = yield* ctx.race(
              ctx.dequeueEvent<string>('q'),
              ctx.dequeueEvent<string>('q'),
              ctx.scheduleTimer(10),
            );
            if (won.index !== 2) values.push(won.value);
            while (values.length < 2) values.push(yield* ctx.dequeueEvent<string>('q'));
          }
          const output = values.join(',');
          yield ctx.scheduleActivity('checkpoint', output);
          return output;
        }),
      );
      try {
        const result = await new Client(provider).waitForOrchestration(instance, 30_000);
        expect(result, `${shape}: queue replay`).toMatchObject({
          status: 'Completed',
          output: expected,
        });
      } finally {
        await runtime.shutdown();
      }
    }
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
          {
            type: 'ContinueAsNew',
            instance,
            orchestration: 'Transition',
            input: '"next"',
            version: '1.0.0',
            carryForwardEvents: [['q', '"carried"']],
          },
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

  // The Rust shapes `can-held` and `can-held-nonprefix` race a dequeue future held across the
  // race (`select2(&mut held, ..)`); a yielded descriptor cannot be held, so they have no
  // generator equivalent.
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

  queue_replay_version_stamp_roundtrip: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'queue-version-roundtrip';
    const event: Event = { ...started(instance, 'TestOrch', '{}'), duroxideVersion: '0.1.30' };
    await seed(provider, instance, [event], [], {
      orchestrationName: 'TestOrch',
      orchestrationVersion: '1.0.0',
    });
    expect(await provider.readWithExecution(instance, 1)).toEqual([event]);
    await provider.enqueueForOrchestrator(
      { type: 'ExternalRaised', instance, name: 'fetch-stamp', data: 'wake' },
      null,
    );
    const fetched = expectPresent(
      await fetchOrchestration(provider),
      'old-stamped execution was not fetchable',
    );
    expect(fetched.item.history[0]?.duroxideVersion, 'fetch path restamped history').toBe('0.1.30');
    await provider.abandonOrchestrationItem(fetched.lockToken, null, true);
  },

  positional_wait_race_replay: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'provider-live-signal';
    const liveSignalRace = function* (ctx: OrchestrationContext): Gen {
      const first = yield* ctx.race(ctx.waitForEvent<string>('s'), ctx.scheduleTimer(30_000));
      const value = first.index === 0 ? first.value : 'timeout';
      return `${JSON.stringify(value)}:${String(yield* ctx.waitForEvent<string>('s'))}`;
    };
    const runtime = await runtimeWith(provider, {}, (rt) =>
      rt.registerOrchestration('LiveSignalRace', liveSignalRace),
    );
    const client = new Client(provider);
    const subscriptions = async (): Promise<number> =>
      (await provider.read(instance)).filter((e) => e.kind.type === 'ExternalSubscribed').length;
    let output: unknown;
    try {
      await client.startOrchestration(instance, 'LiveSignalRace', '');
      await waitUntil('signal subscription appears', async () => (await subscriptions()) >= 1);
      await client.raiseEvent(instance, 's', 'one');
      await waitUntil(
        'replacement signal subscription appears',
        async () => (await subscriptions()) >= 2,
      );
      await client.raiseEvent(instance, 's', 'two');
      const result = await client.waitForOrchestration(instance, 10_000);
      expect(result.status, 'live signal race').toBe('Completed');
      output = result.output;
    } finally {
      await runtime.shutdown();
    }
    const history = (await provider.read(instance)).filter(
      (e) => e.kind.type !== 'OrchestrationCompleted',
    );
    for (let round = 0; round < 2; round += 1) {
      const engine = new ReplayEngine({
        instance,
        executionId: 1,
        history,
        persistedLength: history.length,
        kvSnapshot: new Map(),
        logger: OPTIONS.logger as Logger,
      });
      const replayed = engine.execute(liveSignalRace, '""', 'LiveSignalRace', '1.0.0');
      expect(replayed, 'provider live/replay differs').toEqual({
        type: 'Completed',
        output: JSON.stringify(output),
      });
      expect(engine.historyDelta, 'replay appended history').toEqual([]);
    }
  },
});

async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(20);
  }
}
