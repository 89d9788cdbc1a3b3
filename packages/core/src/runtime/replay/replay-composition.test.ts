import { describe, expect, it } from 'vitest';
import type { Event } from '../../model/event.js';
import type { OrchestrationFunction } from './replay-engine.js';
import {
  activityDone,
  kinds,
  queued,
  raised,
  started,
  timerFired,
  turn,
} from './replay-turn.fixture.js';

describe('replay of races, joins, retries and syscalls', () => {
  it('cancels the losing activity of a race after the decisions of the same turn', () => {
    const racing: OrchestrationFunction = function* (ctx) {
      const first = yield* ctx.race(ctx.scheduleActivity('Slow'), ctx.scheduleTimer(10));
      const second = yield* ctx.race(ctx.waitForEvent('never'), ctx.scheduleTimer(10));
      return [first, second];
    };
    const t1 = turn(racing, [started()]);
    expect(kinds(t1.engine.historyDelta)).toEqual(['2:ActivityScheduled', '3:TimerCreated']);
    const t2 = turn(racing, t1.history, [timerFired(3)]);
    expect(kinds(t2.engine.historyDelta)).toEqual([
      '4:TimerFired<3',
      '5:ExternalSubscribed',
      '6:TimerCreated',
      '7:ActivityCancelRequested<2',
    ]);
    expect(t2.engine.historyDelta[3]?.kind).toEqual({
      type: 'ActivityCancelRequested',
      reason: 'dropped_future',
    });
    expect(t2.engine.cancelledActivityIds).toEqual([2]);
    const t3 = turn(racing, t2.history, [timerFired(6)]);
    expect(kinds(t3.engine.historyDelta)).toEqual([
      '8:TimerFired<6',
      '9:ExternalSubscribedCancelled<5',
    ]);
    expect(t3.result).toEqual({
      type: 'Completed',
      output: '[{"index":1,"value":null},{"index":1,"value":null}]',
    });
    // Replaying the stored history makes the same decisions and records nothing new.
    const replay = turn(racing, t2.history);
    expect(replay.result.type).toBe('Continue');
    expect(replay.engine.historyDelta).toEqual([]);
  });

  it('prefers the earlier task of a race when several are ready (left bias)', () => {
    const racing: OrchestrationFunction = function* (ctx) {
      yield ctx.scheduleActivity('A');
      const won = yield* ctx.race(ctx.dequeueEvent('a'), ctx.dequeueEvent('b'));
      return [won, yield* ctx.dequeueEvent('b')];
    };
    const t1 = turn(racing, [started()]);
    const t2 = turn(racing, t1.history, [queued('x', 'a'), queued('y', 'b'), activityDone(2, '1')]);
    expect(t2.result).toEqual({ type: 'Completed', output: '[{"index":0,"value":"x"},"y"]' });
  });

  it('joins tasks into ok and err entries in input order', () => {
    const joined: OrchestrationFunction = function* (ctx) {
      return yield* ctx.all([
        ctx.scheduleActivity('A'),
        ctx.scheduleTimer(1),
        ctx.waitForEvent('ev'),
      ]);
    };
    const t1 = turn(joined, [started()]);
    expect(kinds(t1.engine.historyDelta)).toEqual([
      '2:ActivityScheduled',
      '3:TimerCreated',
      '4:ExternalSubscribed',
    ]);
    const t2 = turn(joined, t1.history, [raised('"e"'), timerFired(3), activityDone(2, '1')]);
    expect(t2.result).toEqual({ type: 'Completed', output: '[{"ok":1},{"ok":null},{"ok":"e"}]' });
  });

  it.each([false, true])(
    'replays a timer and a message of the same batch to the same FIFO result (drain %s)',
    (drain) => {
      const queueRace: OrchestrationFunction = function* (ctx) {
        const messages: unknown[] = [];
        let timers = 0;
        while (messages.length < 2) {
          const r = (yield ctx.race(ctx.dequeueEvent('q'), ctx.scheduleTimer(20))) as {
            index: number;
            value: unknown;
          };
          if (r.index === 0) messages.push(r.value);
          else {
            timers += 1;
            if (drain) messages.push(yield* ctx.dequeueEvent('q'));
          }
        }
        return `${timers}:${messages.join(',')}`;
      };
      const t1 = turn(queueRace, [started('0.1.31')]);
      const timerId =
        t1.engine.historyDelta.find((e) => e.kind.type === 'TimerCreated')?.eventId ?? 0;
      const t2 = turn(queueRace, t1.history, [timerFired(timerId), queued('first')]);
      expect(t2.result.type).toBe('Continue');
      expect(t2.engine.historyDelta.some((e) => e.kind.type === 'QueueSubscriptionCancelled')).toBe(
        true,
      );
      const replay = turn(queueRace, t2.history);
      expect(replay.result.type).toBe('Continue');
      expect(replay.engine.historyDelta).toEqual([]);
      const t3 = turn(queueRace, t2.history, [queued('second')]);
      expect(t3.result).toEqual({ type: 'Completed', output: '"1:first,second"' });
    },
  );

  it('subscribes anew when a descriptor that lost a race is yielded again, and that dequeue reads the message', () => {
    const yieldedTwice: OrchestrationFunction = function* (ctx) {
      const message = ctx.dequeueEvent<string>('q');
      yield ctx.race(message, ctx.scheduleTimer(10));
      return yield* message;
    };
    const t1 = turn(yieldedTwice, [started('0.1.31')]);
    expect(kinds(t1.engine.historyDelta)).toEqual(['2:QueueSubscribed', '3:TimerCreated']);
    const t2 = turn(yieldedTwice, t1.history, [timerFired(3), queued('"m1"')]);
    expect(kinds(t2.engine.historyDelta)).toEqual([
      '4:TimerFired<3',
      '5:QueueEventDelivered',
      '6:QueueSubscribed',
      '7:QueueSubscriptionCancelled<2',
    ]);
    expect(t2.result).toEqual({ type: 'Completed', output: '"m1"' });
  });

  it('refuses continue-as-new inside a race or all as duroxide-node does, so no dequeue beside it takes a message', () => {
    const composed: OrchestrationFunction = function* (ctx) {
      const raced = yield* ctx.race(ctx.dequeueEvent('q'), ctx.continueAsNew('next'));
      const joined = yield* ctx.all([ctx.continueAsNewVersioned('next', '2.0.0')]);
      return [raced, joined, yield* ctx.dequeueEvent('q')];
    };
    const t1 = turn(composed, [started('0.1.31')]);
    expect(t1.result).toEqual({ type: 'Continue' });
    expect(kinds(t1.engine.historyDelta)).toEqual([
      '2:QueueSubscribed',
      '3:QueueSubscribed',
      '4:QueueSubscriptionCancelled<2',
    ]);
    const t2 = turn(composed, t1.history, [queued('"m1"')]);
    const refused = 'unsupported task in join/select';
    expect(t2.result).toEqual({
      type: 'Completed',
      output: JSON.stringify([{ index: 1, value: refused }, [{ err: refused }], 'm1']),
    });
  });

  it('retries a failed activity after a durable backoff timer', () => {
    const retrying: OrchestrationFunction = function* (ctx) {
      return yield* ctx.scheduleActivityWithRetry('Flaky', null, {
        maxAttempts: 2,
        backoff: 'exponential',
      });
    };
    const t1 = turn(retrying, [started()]);
    const fail = {
      type: 'ActivityFailed' as const,
      instance: 'inst',
      executionId: 1,
      id: 2,
      details: {
        type: 'Application' as const,
        kind: { type: 'ActivityFailed' as const },
        message: 'x',
        retryable: false,
      },
    };
    const t2 = turn(retrying, t1.history, [fail]);
    expect(kinds(t2.engine.historyDelta)).toEqual(['3:ActivityFailed<2', '4:TimerCreated']);
    const created = t2.engine.historyDelta[1] as Event;
    expect(
      created.kind.type === 'TimerCreated' && created.kind.fireAtMs - created.timestampMs,
    ).toBeGreaterThanOrEqual(99);
    const t3 = turn(retrying, t2.history, [timerFired(4)]);
    expect(kinds(t3.engine.historyDelta)).toEqual(['5:TimerFired<4', '6:ActivityScheduled']);
    const t4 = turn(retrying, t3.history, [{ ...fail, id: 6 }]);
    expect(t4.result).toMatchObject({ type: 'Failed', details: { message: 'x' } });
  });

  it('ends a retried attempt with the timeout error when its deadline fires first', () => {
    const retrying: OrchestrationFunction = function* (ctx) {
      try {
        yield ctx.scheduleActivityWithRetry('Slow', null, { maxAttempts: 3, timeoutMs: 50 });
      } catch (error) {
        return (error as Error).message;
      }
    };
    const t1 = turn(retrying, [started()]);
    expect(kinds(t1.engine.historyDelta)).toEqual(['2:ActivityScheduled', '3:TimerCreated']);
    const t2 = turn(retrying, t1.history, [timerFired(3)]);
    expect(t2.result).toEqual({ type: 'Completed', output: '"timeout: activity timed out"' });
    expect(kinds(t2.engine.historyDelta)).toEqual([
      '4:TimerFired<3',
      '5:ActivityCancelRequested<2',
    ]);
  });

  it('writes the syscall activities duroxide writes for newGuid, utcNow and getValueFromInstance', () => {
    const syscalls: OrchestrationFunction = function* (ctx) {
      const guid = yield* ctx.newGuid();
      const now = yield* ctx.utcNow();
      const value = yield* ctx.getValueFromInstance('other', 'k');
      return [guid, now, value];
    };
    let t = turn(syscalls, [started()]);
    expect(t.engine.historyDelta[0]?.kind).toEqual({
      type: 'ActivityScheduled',
      name: '__duroxide_syscall:new_guid',
      input: '',
    });
    t = turn(syscalls, t.history, [activityDone(2, 'g-1')]);
    expect(t.engine.historyDelta[1]?.kind).toEqual({
      type: 'ActivityScheduled',
      name: '__duroxide_syscall:utc_now_ms',
      input: '',
    });
    t = turn(syscalls, t.history, [activityDone(4, '1700000000000')]);
    expect(t.engine.historyDelta[1]?.kind).toEqual({
      type: 'ActivityScheduled',
      name: '__duroxide_syscall:get_kv_value',
      input: '{"instance_id":"other","key":"k"}',
    });
    t = turn(syscalls, t.history, [activityDone(6, '"v"')]);
    expect(t.result).toEqual({ type: 'Completed', output: '["g-1",1700000000000,"v"]' });
  });
});
