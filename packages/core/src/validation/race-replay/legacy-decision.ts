import { expect } from 'vitest';
import { Client } from '../../client/client.js';
import type { Event } from '../../model/event.js';
import type { WorkItem } from '../../model/work-item.js';
import type { Logger } from '../../runtime/logger.js';
import type { OrchestrationContext } from '../../runtime/replay/orchestration-context.js';
import { ReplayEngine } from '../../runtime/replay/replay-engine.js';
import { expectPresent, fetchOrchestration } from '../support/fixtures.js';
import { OPTIONS, runtimeWith, seed, started, type Gen } from './seeding.js';
import type { ValidationRun } from '../validation-group.js';

const NAME = 'LegacyCompetition';

/**
 * Two dequeues of one queue, each racing its own timer. In the Rust original the second dequeue
 * is a future made before the first race and awaited after it; here the join subscribes it
 * before the first race is decided, which is what the decision turns on: whether the dropped
 * first dequeue frees its place in the queue at once (0.1.31) or only after the turn's history
 * walk (0.1.30) decides whether the second one reads the message or times out.
 */
function* legacyCompetition(ctx: OrchestrationContext): Gen {
  const [, second] = yield* ctx.all([
    ctx.race(ctx.dequeueEvent<string>('q'), ctx.scheduleTimer(30_000)),
    ctx.race(ctx.dequeueEvent<string>('q'), ctx.scheduleTimer(60_000)),
  ]);
  const value = second.ok?.index === 0 ? second.ok.value : 'second-timeout';
  yield ctx.scheduleActivity('checkpoint', value);
  return value;
}

function engineOver(instance: string, history: readonly Event[], persisted: number): ReplayEngine {
  return new ReplayEngine({
    instance,
    executionId: 1,
    history,
    persistedLength: persisted,
    kvSnapshot: new Map(),
    logger: OPTIONS.logger as Logger,
  });
}

/**
 * A fetched 0.1.30 execution takes the legacy decision, which differs from the 0.1.31 one, and
 * a runtime replaying that turn's history takes it again: the checkpoint's recorded input names
 * the decision, so replaying under the other rules would fail as nondeterministic. @internal
 */
export const legacyQueueRaceDecisionPreserved: ValidationRun = async ({ newProvider }) => {
  for (const stamp of ['0.1.30', '0.1.31']) {
    const provider = await newProvider();
    const instance = `provider-legacy-decision-${stamp}`;
    const start: Event = { ...started(instance, NAME, '""'), duroxideVersion: stamp };
    const first = engineOver(instance, [start], 0);
    expect(first.execute(legacyCompetition, '""', NAME, '1.0.0')).toEqual({ type: 'Continue' });
    // Timer completions are queued at once; matching checks a timer's id, not its deadline.
    const history = [start, ...first.historyDelta].map((event) =>
      event.kind.type === 'TimerCreated'
        ? { ...event, kind: { ...event.kind, fireAtMs: 1 } }
        : event,
    );
    const timers: WorkItem[] = history
      .filter((event) => event.kind.type === 'TimerCreated')
      .map((event) => ({
        type: 'TimerFired',
        instance,
        executionId: 1,
        id: event.eventId,
        fireAtMs: 1,
      }));
    expect(timers).toHaveLength(2);
    await seed(
      provider,
      instance,
      history,
      [timers[0]!, { type: 'QueueMessage', instance, name: 'q', data: '"first"' }, timers[1]!],
      { orchestrationName: NAME, orchestrationVersion: '1.0.0' },
    );
    const fetched = expectPresent(await fetchOrchestration(provider), 'competition turn');
    expect(
      fetched.item.history[0]?.duroxideVersion,
      'fetch path changed the execution policy',
    ).toBe(stamp);
    const turn = engineOver(instance, fetched.item.history, fetched.item.history.length);
    turn.prepCompletions(fetched.item.messages);
    expect(turn.execute(legacyCompetition, '""', NAME, '1.0.0')).toEqual({ type: 'Continue' });
    const expected = stamp === '0.1.30' ? 'second-timeout' : 'first';
    const checkpoint = expectPresent(
      turn.historyDelta.find(
        (event) => event.kind.type === 'ActivityScheduled' && event.kind.name === 'checkpoint',
      ),
      'competition did not schedule checkpoint',
    );
    expect(checkpoint.kind, `${stamp}: the fetched turn's decision`).toMatchObject({
      input: JSON.stringify(expected),
    });
    await provider.ackOrchestrationItem(
      fetched.lockToken,
      1,
      turn.historyDelta,
      [],
      [
        {
          type: 'ActivityCompleted',
          instance,
          executionId: 1,
          id: checkpoint.eventId,
          result: '"ok"',
        },
      ],
      {},
      [],
    );
    const runtime = await runtimeWith(provider, {}, (rt) => {
      rt.registerActivity('checkpoint', async (_ctx, input: string) => input);
      rt.registerOrchestration(NAME, legacyCompetition);
    });
    try {
      const result = await new Client(provider).waitForOrchestration(instance, 10_000);
      expect(result, `${stamp}: the replayed competition`).toMatchObject({
        status: 'Completed',
        output: expected,
      });
    } finally {
      await runtime.shutdown();
    }
  }
};
