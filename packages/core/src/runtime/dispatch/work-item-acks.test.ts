import { describe, expect, it } from 'vitest';
import { InMemoryProvider } from '../../memory/in-memory-provider.js';
import { TagFilter } from '../../provider/fetch-filters.js';
import type {
  FetchedWorkItem,
  WorkItemAck,
  WorkItemAckOutcome,
} from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import type { RunClaimedTurns, TurnClaim } from '../../provider/turn-claim.js';
import type { ClaimedTurnRunner } from './orchestration-dispatcher.js';
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
    const tracked = fetched.map(() => acks.track('inst', 1, 1));
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
    const lostAck = acks.track('inst', 1, 1).acknowledge(lost!.lockToken, completion(lost!));
    const keptAck = acks.track('inst', 1, 1).acknowledge(kept!.lockToken, completion(kept!));
    await expect(lostAck).rejects.toThrow(/lock/);
    await expect(keptAck).resolves.toBeUndefined();
    expect(calls.map((call) => call.length)).toEqual([2]);
  });

  it('does not wait for a sibling that finished without an ack', async () => {
    const { recording, calls, fetched } = await claimed(2);
    const acks = new WorkItemAcks(recording);
    const abandoned = acks.track('inst', 1, 1);
    const done = acks
      .track('inst', 1, 1)
      .acknowledge(fetched[1]!.lockToken, completion(fetched[1]!));
    abandoned.finish();
    await done;
    expect(calls.map((call) => call.length)).toEqual([1]);
  });
});

/** A turn runner with room for `room` turns a call, recording what it was asked. */
function turnRunner(room: number) {
  const claims: TurnClaim[] = [];
  let released = 0;
  const run: RunClaimedTurns = () => Promise.resolve();
  const runner: ClaimedTurnRunner = {
    reserve: () => {
      if (room === 0) return null;
      const claim: TurnClaim = { maxItems: room, lockTimeoutMs: 30_000, filter: null };
      claims.push(claim);
      return { claim, run, release: () => (released += 1) };
    },
  };
  return { runner, run, claims, released: () => released };
}

/** `provider` with `ackWorkItemsRunningTurns`, recording each call's acks and the runner passed. */
function runningTurns(provider: InMemoryProvider) {
  const calls: { acks: WorkItemAck[]; runTurns: RunClaimedTurns }[] = [];
  const recording: Provider = Object.assign(Object.create(provider) as InMemoryProvider, {
    ackWorkItemsRunningTurns: (
      acks: readonly WorkItemAck[],
      _claim: TurnClaim,
      runTurns: RunClaimedTurns,
    ): Promise<WorkItemAckOutcome[]> => {
      calls.push({ acks: [...acks], runTurns });
      return provider.ackWorkItems(acks);
    },
  });
  return { recording, calls };
}

describe('WorkItemAcks running the turns completions wake', () => {
  it('acknowledges completions with ackWorkItemsRunningTurns while the runner has room', async () => {
    const { provider, fetched } = await claimed(2);
    const { recording, calls } = runningTurns(provider);
    const turns = turnRunner(8);
    const acks = new WorkItemAcks(recording);
    acks.runTurnsWith(turns.runner);
    await Promise.all(
      fetched.map((item) => acks.track('inst', 1, 1).acknowledge(item.lockToken, completion(item))),
    );
    expect(calls.map((call) => [call.acks.length, call.runTurns === turns.run])).toEqual([
      [2, true],
    ]);
    expect(turns.claims.map((claim) => claim.maxItems)).toEqual([8]);
    expect(turns.released()).toBe(1);
  });

  it('acknowledges with ackWorkItems when the runner has no room', async () => {
    const { provider, fetched } = await claimed(1);
    const { recording, calls } = runningTurns(provider);
    const acks = new WorkItemAcks(recording);
    acks.runTurnsWith(turnRunner(0).runner);
    const [item] = fetched;
    await acks.track('inst', 1, 1).acknowledge(item!.lockToken, completion(item!));
    expect(calls).toEqual([]);
    expect(await provider.fetchWorkItems(30_000, 0, null, TagFilter.defaultOnly(), 1, 0)).toEqual(
      [],
    );
  });

  it('acknowledges alone a call with an activity delivered before', async () => {
    const { provider, fetched } = await claimed(2);
    const { recording, calls } = runningTurns(provider);
    const turns = turnRunner(8);
    const acks = new WorkItemAcks(recording);
    acks.runTurnsWith(turns.runner);
    const [first, again] = fetched;
    await Promise.all([
      acks.track('inst', 1, 1).acknowledge(first!.lockToken, completion(first!)),
      acks.track('inst', 1, 2).acknowledge(again!.lockToken, completion(again!)),
    ]);
    expect({ calls: calls.length, claims: turns.claims.length }).toEqual({ calls: 0, claims: 0 });
  });

  it('asks no runner for acknowledgements without a completion', async () => {
    const { provider, fetched } = await claimed(1);
    const { recording, calls } = runningTurns(provider);
    const turns = turnRunner(8);
    const acks = new WorkItemAcks(recording);
    acks.runTurnsWith(turns.runner);
    await acks.track('inst', 1, 1).acknowledge(fetched[0]!.lockToken, null);
    expect({ calls: calls.length, claims: turns.claims.length }).toEqual({ calls: 0, claims: 0 });
  });
});
