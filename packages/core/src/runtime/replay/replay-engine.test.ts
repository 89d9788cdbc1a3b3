import { describe, expect, it } from 'vitest';
import type { OrchestrationContext } from './orchestration-context.js';
import type { OrchestrationFunction } from './replay-engine.js';
import {
  activityDone,
  event,
  kinds,
  queued,
  raised,
  started,
  turn,
} from './replay-turn.fixture.js';

function* twoSteps(ctx: OrchestrationContext): Generator<unknown, unknown, unknown> {
  const a = yield* ctx.scheduleActivity('A', 1);
  const b = yield* ctx.scheduleActivity('B', a);
  return { a, b };
}

describe('replay engine', () => {
  it('records the first decision of a new execution as the next event', () => {
    const first = turn(twoSteps, [started()]);
    expect(first.result).toEqual({ type: 'Continue' });
    expect(kinds(first.engine.historyDelta)).toEqual(['2:ActivityScheduled']);
    expect(first.engine.historyDelta[0]?.kind).toEqual({
      type: 'ActivityScheduled',
      name: 'A',
      input: '1',
    });
    expect(first.engine.historyDelta[0]?.duroxideVersion).toBe('0.1.32');
    expect(first.engine.pendingActions).toMatchObject([
      { type: 'CallActivity', schedulingEventId: 2 },
    ]);
  });

  it('replays recorded results and completes with the JSON output', () => {
    const t1 = turn(twoSteps, [started()]);
    const t2 = turn(twoSteps, t1.history, [activityDone(2, '"x"')]);
    expect(kinds(t2.engine.historyDelta)).toEqual(['3:ActivityCompleted<2', '4:ActivityScheduled']);
    const t3 = turn(twoSteps, t2.history, [activityDone(4, '7')]);
    expect(t3.result).toEqual({ type: 'Completed', output: '{"a":"x","b":7}' });
  });

  it('ignores a duplicate completion and one for another execution', () => {
    const t1 = turn(twoSteps, [started()]);
    const t2 = turn(twoSteps, t1.history, [
      activityDone(2, '1'),
      activityDone(2, '1'),
      { ...activityDone(2, '9'), executionId: 2 },
    ]);
    expect(kinds(t2.engine.historyDelta)).toEqual(['3:ActivityCompleted<2', '4:ActivityScheduled']);
  });

  it('names the expected and the actual decision when code changed between turns', () => {
    const t1 = turn(twoSteps, [started()]);
    const changed: OrchestrationFunction = function* (ctx) {
      yield ctx.scheduleTimer(10);
    };
    const t2 = turn(changed, t1.history, [activityDone(2, '1')]);
    expect(t2.result.type).toBe('Failed');
    if (t2.result.type !== 'Failed') return;
    expect(t2.result.details).toMatchObject({
      type: 'Configuration',
      kind: { type: 'Nondeterminism' },
      resource: '',
    });
    const message = t2.result.details.type === 'Configuration' ? t2.result.details.message : '';
    expect(message).toMatch(
      /^schedule mismatch: action=CreateTimer \{ scheduling_event_id: 0, fire_at_ms: \d+ \} vs event=ActivityScheduled \{ name: "A", input: "1", session_id: None, tag: None \}$/,
    );
  });

  it('reports a completion whose schedule is missing as nondeterminism', () => {
    const t = turn(twoSteps, [started()], [activityDone(9, '1')]);
    expect(t.result).toMatchObject({
      type: 'Failed',
      details: { message: 'no matching schedule for completion id=9' },
    });
  });

  it('fails an orchestration that throws with the error text', () => {
    const failing: OrchestrationFunction = function* (ctx) {
      yield ctx.scheduleActivity('A');
      throw new Error('boom');
    };
    const t2 = turn(failing, turn(failing, [started()]).history, [activityDone(2, 'null')]);
    expect(t2.result).toEqual({
      type: 'Failed',
      details: {
        type: 'Application',
        kind: { type: 'OrchestrationFailed' },
        message: 'boom',
        retryable: false,
      },
    });
  });

  it('throws a failed activity into the orchestration as an Error with the failure text', () => {
    const catching: OrchestrationFunction = function* (ctx) {
      try {
        yield ctx.scheduleActivity('A');
        return 'no';
      } catch (error) {
        return (error as Error).message;
      }
    };
    const t1 = turn(catching, [started()]);
    const t2 = turn(catching, t1.history, [
      {
        type: 'ActivityFailed',
        instance: 'inst',
        executionId: 1,
        id: 2,
        details: {
          type: 'Application',
          kind: { type: 'ActivityFailed' },
          message: 'nope',
          retryable: false,
        },
      },
    ]);
    expect(t2.result).toEqual({ type: 'Completed', output: '"nope"' });
  });

  it('keeps an external event raised before its wait in history but does not deliver it', () => {
    const waiting: OrchestrationFunction = function* (ctx) {
      yield ctx.scheduleActivity('A');
      return yield* ctx.waitForEvent('ev');
    };
    const t1 = turn(waiting, [started()]);
    const t2 = turn(waiting, t1.history, [raised('"early"'), activityDone(2, '1')]);
    expect(kinds(t2.engine.historyDelta)).toEqual([
      '3:ExternalEvent',
      '4:ActivityCompleted<2',
      '5:ExternalSubscribed',
    ]);
    expect(t2.result.type).toBe('Continue');
    const t3 = turn(waiting, t2.history, [raised('"late"')]);
    expect(t3.result).toEqual({ type: 'Completed', output: '"late"' });
  });

  it('delivers queue messages first in, first out, also ones that arrived before the dequeue', () => {
    const draining: OrchestrationFunction = function* (ctx) {
      yield ctx.scheduleActivity('A');
      const a = yield* ctx.dequeueEvent('q');
      const b = yield* ctx.dequeueEvent('q');
      return [a, b];
    };
    const t1 = turn(draining, [started()]);
    const t2 = turn(draining, t1.history, [queued('one'), queued('two'), activityDone(2, '1')]);
    expect(t2.result).toEqual({ type: 'Completed', output: '["one","two"]' });
    expect(kinds(t2.engine.historyDelta).slice(-2)).toEqual([
      '6:QueueSubscribed',
      '7:QueueSubscribed',
    ]);
  });

  it('carries unread queue messages across continue-as-new for 0.1.31 executions', () => {
    const continuing: OrchestrationFunction = function* (ctx) {
      yield ctx.scheduleActivity('A');
      const first = yield* ctx.dequeueEvent('q');
      return yield* ctx.continueAsNew(first);
    };
    const t1 = turn(continuing, [started('0.1.31')]);
    const t2 = turn(continuing, t1.history, [
      queued('1'),
      queued('2'),
      queued('3', 'other'),
      activityDone(2, 'null'),
    ]);
    expect(t2.result).toEqual({
      type: 'ContinueAsNew',
      input: '1',
      version: null,
      unconsumedQueueArrivals: [
        ['q', '2'],
        ['other', '3'],
      ],
    });
    const legacy = turn(continuing, turn(continuing, [started('0.1.30')]).history, [
      queued('1'),
      activityDone(2, 'null'),
    ]);
    expect(legacy.result).toMatchObject({ type: 'ContinueAsNew', unconsumedQueueArrivals: null });
  });

  it('records custom status and key-value changes as events and replays them', () => {
    const stateful: OrchestrationFunction = function* (ctx) {
      ctx.setCustomStatus('working');
      ctx.setValue('k', 'v');
      yield ctx.scheduleActivity('A');
      ctx.clearValue('k');
      return [ctx.getCustomStatus(), ctx.getValue('k')];
    };
    const t1 = turn(stateful, [started()]);
    expect(kinds(t1.engine.historyDelta)).toEqual([
      '2:CustomStatusUpdated',
      '3:KeyValueSet',
      '4:ActivityScheduled',
    ]);
    const t2 = turn(stateful, t1.history, [activityDone(4, 'null')]);
    expect(kinds(t2.engine.historyDelta)).toEqual(['5:ActivityCompleted<4', '6:KeyValueCleared']);
    expect(t2.result).toEqual({ type: 'Completed', output: '["working",null]' });
  });

  it('names children after the scheduling event and the execution', () => {
    const parent: OrchestrationFunction = function* (ctx) {
      yield ctx.scheduleSubOrchestration('Child', 1);
    };
    const t1 = turn(parent, [started()]);
    expect(t1.engine.historyDelta[0]?.kind).toEqual({
      type: 'SubOrchestrationScheduled',
      name: 'Child',
      instance: 'sub::2',
      input: '1',
    });
  });

  it('refuses an explicit child id with the reserved prefix without scheduling it', () => {
    const parent: OrchestrationFunction = function* (ctx) {
      try {
        yield ctx.scheduleSubOrchestrationWithId('Child', 'sub::x');
      } catch (error) {
        return (error as Error).message;
      }
    };
    const t1 = turn(parent, [started()]);
    expect(t1.engine.historyDelta).toEqual([]);
    expect(t1.result.type).toBe('Completed');
  });

  it('fails with Panicked when a detached start uses a reserved instance id', () => {
    const parent: OrchestrationFunction = function* (ctx) {
      yield ctx.startOrchestration('Other', 'a::sub::1');
    };
    expect(turn(parent, [started()]).result).toMatchObject({
      type: 'Failed',
      details: { type: 'Application', kind: { type: 'Panicked' } },
    });
  });

  it('treats a cancel request as terminal for the turn', () => {
    const t1 = turn(twoSteps, [started()]);
    const t2 = turn(twoSteps, t1.history, [
      { type: 'CancelInstance', instance: 'inst', reason: 'stop' },
    ]);
    expect(t2.result).toEqual({ type: 'Cancelled', reason: 'stop' });
    expect(kinds(t2.engine.historyDelta)).toEqual(['3:OrchestrationCancelRequested']);
  });

  it('fails with corrupted history when the first event is not OrchestrationStarted', () => {
    const t = turn(twoSteps, [event(1, null, { type: 'TimerCreated', fireAtMs: 1 })]);
    expect(t.result).toMatchObject({
      type: 'Failed',
      details: { message: 'corrupted history: first event must be OrchestrationStarted' },
    });
  });
});
