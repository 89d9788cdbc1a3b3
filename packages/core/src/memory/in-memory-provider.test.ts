import { describe, expect, it } from 'vitest';
import type { Event } from '../model/event.js';
import type { WorkItem } from '../model/work-item.js';
import { TagFilter } from '../provider/fetch-filters.js';
import { ProviderError } from '../provider/provider-error.js';
import {
  activityCompleted,
  activityExecute,
  createInstance,
  eventWithId,
  expectPresent,
  startItem,
  testOrchStarted,
} from '../validation/support/fixtures.js';
import { InMemoryProvider } from './in-memory-provider.js';

/** A clock that only moves when told to. */
function manualClock(startMs = 1_700_000_000_000) {
  let nowMs = startMs;
  return {
    nowMs: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

describe('the injected clock', () => {
  it('decides when a delayed message becomes visible', async () => {
    const clock = manualClock();
    const provider = new InMemoryProvider({ nowMs: clock.nowMs });
    await provider.enqueueForOrchestrator(startItem('delayed'), 60_000);

    clock.advance(59_999);
    expect(await provider.fetchOrchestrationItem(5_000, 0, null)).toBeNull();
    clock.advance(1);
    const fetched = await provider.fetchOrchestrationItem(5_000, 0, null);
    expect(fetched?.item.instance).toBe('delayed');
  });

  it('decides when instance and activity locks lapse', async () => {
    const clock = manualClock();
    const provider = new InMemoryProvider({ nowMs: clock.nowMs });
    await provider.enqueueForOrchestrator(startItem('locked'), null);
    await provider.enqueueForWorker(activityExecute('locked', 1, 1, 'Work', ''));
    const turn = expectPresent(await provider.fetchOrchestrationItem(10_000, 0, null), 'turn');
    const activity = expectPresent(
      await provider.fetchWorkItem(10_000, 0, null, TagFilter.any()),
      'activity',
    );

    clock.advance(10_000);
    await expect(provider.renewOrchestrationItemLock(turn.lockToken, 1_000)).rejects.toThrow(
      /expired/,
    );
    await expect(provider.ackWorkItem(activity.lockToken, null)).rejects.toThrow(/lock expired/);
    expect(await provider.fetchOrchestrationItem(10_000, 0, null)).not.toBeNull();
    expect(await provider.fetchWorkItem(10_000, 0, null, TagFilter.any())).not.toBeNull();
  });

  it('stamps instances and executions with its time', async () => {
    const clock = manualClock(1_000_000);
    const provider = new InMemoryProvider({ nowMs: clock.nowMs });
    await createInstance(provider, 'stamped');
    clock.advance(500);
    await provider.enqueueForOrchestrator(activityCompleted('stamped', 1, 1, 'ok'), null);
    const { lockToken } = expectPresent(await provider.fetchOrchestrationItem(5_000, 0, null), '');
    await provider.ackOrchestrationItem(
      lockToken,
      1,
      [eventWithId(2, 'stamped', 1, null, { type: 'OrchestrationCompleted', output: 'done' })],
      [],
      [],
      { status: 'Completed', output: 'done' },
      [],
    );

    const info = await provider.getInstanceInfo('stamped');
    expect([info.createdAt, info.updatedAt]).toEqual([1_000_000, 1_000_500]);
    const execution = await provider.getExecutionInfo('stamped', 1);
    expect([execution.startedAt, execution.completedAt]).toEqual([1_000_000, 1_000_500]);
  });
});

describe('stored state is private', () => {
  it('is not changed by mutating an item after enqueueing it', async () => {
    const provider = new InMemoryProvider();
    const item = { ...activityExecute('copies', 1, 1, 'Work', 'original') };
    await provider.enqueueForWorker(item);
    (item as { input: string }).input = 'changed';

    const fetched = expectPresent(
      await provider.fetchWorkItem(5_000, 0, null, TagFilter.defaultOnly()),
      'activity',
    );
    expect(fetched.item).toMatchObject({ input: 'original' });
  });

  it('is not changed by mutating what a fetch or a read returned', async () => {
    const provider = new InMemoryProvider();
    await createInstance(provider, 'copies');
    await provider.enqueueForOrchestrator(activityCompleted('copies', 1, 1, 'original'), null);

    const first = expectPresent(await provider.fetchOrchestrationItem(5_000, 0, null), 'turn');
    (first.item.messages as WorkItem[]).length = 0;
    (first.item.history as Event[]).push(first.item.history[0] as Event);
    (await provider.read('copies')).length = 0;
    await provider.abandonOrchestrationItem(first.lockToken, null, false);

    const second = expectPresent(await provider.fetchOrchestrationItem(5_000, 0, null), 'turn');
    expect(second.item.messages).toEqual([activityCompleted('copies', 1, 1, 'original')]);
    expect(second.item.history).toHaveLength(1);
    expect(await provider.read('copies')).toHaveLength(1);
  });

  it('is not changed by mutating events after acknowledging them', async () => {
    const provider = new InMemoryProvider();
    await provider.enqueueForOrchestrator(startItem('copies'), null);
    const { lockToken } = expectPresent(await provider.fetchOrchestrationItem(5_000, 0, null), '');
    const started = eventWithId(1, 'copies', 1, null, testOrchStarted());
    await provider.ackOrchestrationItem(lockToken, 1, [started], [], [], {}, []);
    (started.kind as { input: string }).input = 'changed';

    const [stored] = await provider.read('copies');
    expect(stored?.kind).toMatchObject({ type: 'OrchestrationStarted', input: '{}' });
  });
});

describe('bad input', () => {
  it('is refused with an error naming the argument', async () => {
    const provider = new InMemoryProvider();
    const error = await provider.fetchOrchestrationItem(-1, 0, null).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error) && !error.retryable).toBe(true);
    expect(String(error)).toMatch(/lockTimeoutMs must be .* got -1/);
    await expect(provider.enqueueForOrchestrator(startItem('x'), Number.NaN)).rejects.toThrow(
      /delayMs/,
    );
  });

  it('is refused when a message is sent to the wrong queue', async () => {
    const provider = new InMemoryProvider();
    await expect(provider.enqueueForWorker(startItem('x'))).rejects.toThrow(
      /only ActivityExecute belongs to the worker queue/,
    );
    await expect(
      provider.enqueueForOrchestrator(activityExecute('x', 1, 1, 'Work', ''), null),
    ).rejects.toThrow(/belongs to the worker queue/);
  });

  it('leaves a turn uncommitted when one of its items is wrong', async () => {
    const provider = new InMemoryProvider();
    await provider.enqueueForOrchestrator(startItem('atomic'), null);
    const { lockToken } = expectPresent(await provider.fetchOrchestrationItem(5_000, 0, null), '');
    const ack = provider.ackOrchestrationItem(
      lockToken,
      1,
      [eventWithId(1, 'atomic', 1, null, testOrchStarted())],
      [activityExecute('atomic', 1, 2, 'Work', '')],
      [activityExecute('atomic', 1, 3, 'Misplaced', '')],
      { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0' },
      [],
    );
    await expect(ack).rejects.toThrow(/belongs to the worker queue, not the orchestrator queue/);

    expect(await provider.read('atomic')).toEqual([]);
    expect(await provider.listInstances()).toEqual([]);
    expect(await provider.fetchWorkItem(5_000, 0, null, TagFilter.any())).toBeNull();
    await provider.ackOrchestrationItem(lockToken, 1, [], [], [], {}, []);
  });
});

describe('fetching', () => {
  it('does not let a message racing its start hold up other instances', async () => {
    const provider = new InMemoryProvider();
    await provider.enqueueForOrchestrator(activityCompleted('not-started', 1, 1, 'early'), null);
    await provider.enqueueForOrchestrator(startItem('ready'), null);

    const fetched = await provider.fetchOrchestrationItem(5_000, 0, null);
    expect(fetched?.item.instance).toBe('ready');
    expect(fetched?.attemptCount).toBe(1);
    expect(await provider.getQueueDepths()).toMatchObject({ orchestratorQueue: 1 });
    expect(provider.maxOrchestratorAttemptCount('not-started'), 'left untouched').toBe(0);
  });

  it('hands out undecodable history of an instance that has no row, with historyError', async () => {
    const provider = new InMemoryProvider();
    await provider.enqueueForOrchestrator(startItem('rowless'), null);
    const first = expectPresent(await provider.fetchOrchestrationItem(5_000, 0, null), 'turn');
    const started = eventWithId(1, 'rowless', 1, null, testOrchStarted());
    await provider.ackOrchestrationItem(first.lockToken, 1, [started], [], [], {}, []);
    provider.corruptInstanceHistory('rowless');
    await provider.enqueueForOrchestrator(activityCompleted('rowless', 1, 1, 'ok'), null);

    const { item } = expectPresent(await provider.fetchOrchestrationItem(5_000, 0, null), 'turn');
    expect(item.historyError).toMatch(/unknown history event type/);
    expect(item.history).toEqual([]);
  });
});
