import { describe, expect, it } from 'vitest';
import { TagFilter } from '../provider/fetch-filters.js';
import {
  activityExecute,
  createInstance,
  eventWithId,
  expectPresent,
  startItem,
} from '../validation/support/fixtures.js';
import { InMemoryProvider } from './in-memory-provider.js';

// Each fetch below may wait ten minutes, far beyond the test timeout: it can only finish in time
// by being woken.
const LONG_POLL_MS = 600_000;

describe('long polling', () => {
  it('wakes a waiting orchestration fetch when a message is enqueued', async () => {
    const provider = new InMemoryProvider();
    const waiting = provider.fetchOrchestrationItem(5_000, LONG_POLL_MS, null);
    await provider.enqueueForOrchestrator(startItem('woken'), null);
    expect((await waiting)?.item.instance).toBe('woken');
  });

  it('wakes a waiting activity fetch when a turn schedules an activity', async () => {
    const provider = new InMemoryProvider();
    await createInstance(provider, 'scheduler');
    await provider.enqueueForOrchestrator(startItem('scheduler'), null);
    const { lockToken } = expectPresent(await provider.fetchOrchestrationItem(5_000, 0, null), '');

    const waiting = provider.fetchWorkItem(5_000, LONG_POLL_MS, null, TagFilter.defaultOnly());
    await provider.ackOrchestrationItem(
      lockToken,
      1,
      [
        eventWithId(2, 'scheduler', 1, null, {
          type: 'ActivityScheduled',
          name: 'Work',
          input: '',
        }),
      ],
      [activityExecute('scheduler', 1, 2, 'Work', '')],
      [],
      {},
      [],
    );
    expect((await waiting)?.item).toMatchObject({ type: 'ActivityExecute', id: 2 });
  });

  it('hands out delayed work once it becomes visible, without being woken', async () => {
    const provider = new InMemoryProvider();
    await provider.enqueueForWorker(activityExecute('later', 1, 1, 'Work', ''));
    const first = expectPresent(
      await provider.fetchWorkItem(5_000, 0, null, TagFilter.defaultOnly()),
      'activity',
    );
    await provider.abandonWorkItem(first.lockToken, 50, false);

    const refetched = await provider.fetchWorkItem(5_000, LONG_POLL_MS, null, TagFilter.any());
    expect(refetched?.attemptCount).toBe(2);
  });

  it('hands out work whose lock lapsed, without being woken', async () => {
    const provider = new InMemoryProvider();
    await provider.enqueueForOrchestrator(startItem('lapsed'), null);
    expectPresent(await provider.fetchOrchestrationItem(50, 0, null), 'first turn');

    const retaken = await provider.fetchOrchestrationItem(5_000, LONG_POLL_MS, null);
    expect(retaken?.attemptCount).toBe(2);
  });

  it('hands out a lock that lapses while the fetch looks, without waiting out the poll', async () => {
    // Once `lapseOnNextRead` is set, the clock reads one moment before the lease's end and then
    // jumps past it: the lock lapses between two reads of one look at the queue.
    let nowMs = 1_700_000_000_000;
    let lapseOnNextRead = false;
    const provider = new InMemoryProvider({
      nowMs: () => {
        if (!lapseOnNextRead) return nowMs;
        lapseOnNextRead = false;
        const before = nowMs;
        nowMs += 100;
        return before;
      },
    });
    await provider.enqueueForOrchestrator(startItem('lapsing'), null);
    expectPresent(await provider.fetchOrchestrationItem(50, 0, null), 'first turn');
    nowMs += 49;

    lapseOnNextRead = true;
    const retaken = await provider.fetchOrchestrationItem(5_000, LONG_POLL_MS, null);
    expect(retaken?.attemptCount).toBe(2);
  });

  it('looks again when told the injected clock moved', async () => {
    let nowMs = 1_700_000_000_000;
    const provider = new InMemoryProvider({ nowMs: () => nowMs });
    await provider.enqueueForOrchestrator(startItem('timer'), 3_600_000);

    const waiting = provider.fetchOrchestrationItem(5_000, LONG_POLL_MS, null);
    nowMs += 3_600_000;
    provider.notifyClockAdvanced();
    expect((await waiting)?.item.instance).toBe('timer');
  });

  it('returns nothing at once for a node that takes no activities', async () => {
    const provider = new InMemoryProvider();
    await provider.enqueueForWorker(activityExecute('any', 1, 1, 'Work', ''));
    expect(await provider.fetchWorkItem(5_000, LONG_POLL_MS, null, TagFilter.none())).toBeNull();
  });
});
