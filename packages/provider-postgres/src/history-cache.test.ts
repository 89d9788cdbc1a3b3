import type { Event, EventKind } from '@duro/core';
import { describe, expect, it } from 'vitest';
import { HistoryCache } from './history-cache.js';

function event(eventId: number, kind: EventKind): Event {
  return {
    eventId,
    sourceEventId: null,
    instanceId: 'i',
    executionId: 1,
    timestampMs: 1_000 + eventId,
    duroxideVersion: '0.1.32',
    kind,
  };
}

const raised = (eventId: number): Event =>
  event(eventId, { type: 'ExternalEvent', name: 'e', data: '"d"' });

describe('HistoryCache', () => {
  it('grows a held history by each acknowledged turn and names its last event', () => {
    const cache = new HistoryCache(8);
    cache.claimed('t1', 'i', 1, [raised(1)]);
    cache.acknowledged('t1', 1, [raised(2), raised(3)]);
    expect(cache.held()).toEqual({ instanceIds: ['i'], executionIds: [1], lastEventIds: [3] });
  });

  it('leaves a history a later claim replaced, when the earlier turn is acknowledged', () => {
    const cache = new HistoryCache(8);
    cache.claimed('stale', 'i', 1, [raised(1)]);
    cache.claimed('current', 'i', 1, [raised(1), raised(2)]);
    cache.acknowledged('stale', 1, [raised(2)]);
    expect(cache.held().lastEventIds).toEqual([2]);
  });

  it('drops an instance whose turn ended the execution', () => {
    const cache = new HistoryCache(8);
    cache.claimed('t1', 'i', 1, [raised(1)]);
    cache.acknowledged('t1', 1, [event(2, { type: 'OrchestrationCompleted', output: '1' })]);
    expect(cache.held().instanceIds).toEqual([]);
  });

  it('assembles the held prefix up to the anchor and the tail, and refuses another anchor', () => {
    const cache = new HistoryCache(8);
    cache.claimed('t1', 'i', 1, [raised(1), raised(2), raised(3)]);
    const anchor = storedForm(raised(2));
    expect(cache.assemble('i', 1, 2, anchor, [raised(9)])?.map((e) => e.eventId)).toEqual([
      1, 2, 9,
    ]);
    expect(cache.assemble('i', 1, 2, { ...anchor, timestamp_ms: 5 }, [])).toBeNull();
    expect(cache.assemble('i', 2, 2, anchor, [])).toBeNull();
    expect(cache.assemble('i', 1, 7, anchor, [])).toBeNull();
  });

  it('holds at most its capacity, forgetting the least recently run first', () => {
    const cache = new HistoryCache(2);
    for (const instance of ['a', 'b', 'c']) cache.claimed(instance, instance, 1, [raised(1)]);
    expect(cache.held().instanceIds).toEqual(['b', 'c']);
  });
});

/** The stored form of an `ExternalEvent`, written out by hand. */
function storedForm(e: Event): Record<string, unknown> {
  return {
    event_id: e.eventId,
    source_event_id: e.sourceEventId,
    instance_id: e.instanceId,
    execution_id: e.executionId,
    timestamp_ms: e.timestampMs,
    duroxide_version: e.duroxideVersion,
    type: 'ExternalEvent',
    name: 'e',
    data: '"d"',
  };
}
