import { describe, expect, it } from 'vitest';
import type { Event, EventKind } from '../../model/event.js';
import { reconcileDroppedTasks } from './dropped-task-reconciler.js';
import { ReplayState } from './replay-state.js';
import { event, started } from './replay-turn.fixture.js';

function sink(baseline: Event[]) {
  const appended: Array<[number, EventKind]> = [];
  return {
    appended,
    value: {
      baseline,
      persistedLength: baseline.length,
      delta: [],
      cancelledActivityIds: [] as number[],
      cancelledSubOrchestrations: [] as string[],
      appendBreadcrumb: (source: number, kind: EventKind) => appended.push([source, kind]),
    },
  };
}

describe('dropped task reconciliation', () => {
  it('detects code that no longer drops a task history says was dropped', () => {
    const baseline = [
      started(),
      event(2, null, { type: 'ActivityScheduled', name: 'Slow', input: 'null' }),
      event(3, 2, { type: 'ActivityCancelRequested', reason: 'dropped_future' }),
    ];
    const state = new ReplayState();
    state.bindToken(1, 2);
    expect(reconcileDroppedTasks(state, sink(baseline).value)).toMatchObject({
      type: 'Configuration',
      message:
        'cancellation mismatch (activities): baseline_dropped_future_cancel_requests={2} ctx_cancelled_in_replayed_segment={}',
    });
  });

  it('writes one breadcrumb per newly dropped task and none for one already recorded', () => {
    const baseline = [
      started(),
      event(2, null, { type: 'ActivityScheduled', name: 'A', input: 'null' }),
      event(3, null, { type: 'ExternalSubscribed', name: 'ev' }),
      event(4, 2, { type: 'ActivityCancelRequested', reason: 'dropped_future' }),
    ];
    const state = new ReplayState();
    state.bindToken(1, 2);
    state.bindToken(2, 3);
    state.markTokenCancelled(1, 'activity');
    state.markTokenCancelled(2, 'external');
    const target = sink(baseline);
    expect(reconcileDroppedTasks(state, target.value)).toBeNull();
    expect(target.appended).toEqual([
      [3, { type: 'ExternalSubscribedCancelled', reason: 'dropped_future' }],
    ]);
    expect(target.value.cancelledActivityIds).toEqual([]);
  });
});
