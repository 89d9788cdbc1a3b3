import { describe, expect, it } from 'vitest';
import { InMemoryProvider } from '../../memory/in-memory-provider.js';
import { TagFilter } from '../../provider/fetch-filters.js';
import type { FetchedWorkItem, WorkItemAck } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { WorkItemAcks } from './work-item-acks.js';

/** An in-memory store whose batch acks are recorded, with `count` activities of one execution claimed. */
async function claimed(count: number, instance = 'inst') {
  const provider = new InMemoryProvider();
  for (let id = 1; id <= count; id += 1) {
    await provider.enqueueForWorker({
      type: 'ActivityExecute',
      instance,
      executionId: 1,
      id,
      name: 'Work',
      input: '{}',
    });
  }
  const calls: WorkItemAck[][] = [];
  const recording: Provider = Object.assign(Object.create(provider) as InMemoryProvider, {
    ackWorkItems: (acks: readonly WorkItemAck[]) => {
      calls.push([...acks]);
      return provider.ackWorkItems(acks);
    },
  });
  const fetched = await provider.fetchWorkItems(30_000, 0, null, TagFilter.defaultOnly(), count, 0);
  return { provider, recording, calls, fetched };
}

function completion(fetched: FetchedWorkItem) {
  const { item } = fetched;
  if (item.type !== 'ActivityExecute') throw new Error('expected an activity');
  return {
    type: 'ActivityCompleted' as const,
    instance: item.instance,
    executionId: 1,
    id: item.id,
    result: '1',
  };
}

describe('WorkItemAcks', () => {
  it('waits for the siblings of an execution and sends their acks in one call', async () => {
    const { recording, calls, fetched } = await claimed(3);
    const acks = new WorkItemAcks(recording);
    const tracked = fetched.map(() => acks.track('inst', 1));
    const first = tracked[0]?.acknowledge(fetched[0]?.lockToken ?? '', completion(fetched[0]!));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls, 'nothing is sent while siblings run').toEqual([]);
    const rest = fetched
      .slice(1)
      .map((f, index) => tracked[index + 1]?.acknowledge(f.lockToken, completion(f)));
    await Promise.all([first, ...rest]);
    expect(calls.map((call) => call.length)).toEqual([3]);
  });

  it('fails only the ack whose lock is gone, in a call shared with one that commits', async () => {
    const { provider, recording, calls, fetched } = await claimed(2);
    const acks = new WorkItemAcks(recording);
    const [lost, kept] = fetched;
    await provider.abandonWorkItem(lost!.lockToken, null, false);
    const lostAck = acks.track('inst', 1).acknowledge(lost!.lockToken, completion(lost!));
    const keptAck = acks.track('inst', 1).acknowledge(kept!.lockToken, completion(kept!));
    await expect(lostAck).rejects.toThrow(/lock/);
    await expect(keptAck).resolves.toBeUndefined();
    expect(calls.map((call) => call.length)).toEqual([2]);
  });

  it('does not wait for a sibling that finished without an ack', async () => {
    const { recording, calls, fetched } = await claimed(2);
    const acks = new WorkItemAcks(recording);
    const abandoned = acks.track('inst', 1);
    const done = acks.track('inst', 1).acknowledge(fetched[1]!.lockToken, completion(fetched[1]!));
    abandoned.finish();
    await done;
    expect(calls.map((call) => call.length)).toEqual([1]);
  });
});
