import { expect } from 'vitest';
import { Client } from '../../client/client.js';
import type { Event } from '../../model/event.js';
import type { Logger } from '../../runtime/logger.js';
import type { OrchestrationContext } from '../../runtime/replay/orchestration-context.js';
import { ReplayEngine } from '../../runtime/replay/replay-engine.js';
import { eventWithId, expectPresent, fetchOrchestration } from '../support/fixtures.js';
import { OPTIONS, runtimeWith, seed, started, waitUntil, type Gen } from './seeding.js';
import type { ValidationRun } from '../validation-group.js';

/** The race_replay validations about queue and wait races on replay. @internal */
export const queueRaceValidations = {
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
} satisfies Record<string, ValidationRun>;
