import { describe, expect, it } from 'vitest';
import type { ActivityClaim } from '../../provider/activity-claim.js';
import { TagFilter } from '../../provider/fetch-filters.js';
import type {
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
} from '../../provider/orchestration-item.js';
import { ProviderError } from '../../provider/provider-error.js';
import { TurnBatchAcks } from './turn-batch-acks.js';
import type { ActivityHandoff } from './activity-handoff.js';

function turn(lockToken: string): OrchestrationItemAck {
  return {
    lockToken,
    executionId: 1,
    historyDelta: [],
    workerItems: [],
    orchestratorItems: [],
    metadata: {},
    cancelledActivities: [],
  };
}

/** A stand-in for `ackOrchestrationItems` that records its calls; `lost` tokens fail. */
function recorder(lost: readonly string[] = []) {
  const calls: string[][] = [];
  const ackOrchestrationItems = (acks: readonly OrchestrationItemAck[]) => {
    calls.push(acks.map((ack) => ack.lockToken));
    return Promise.resolve(
      acks.map((ack): OrchestrationItemAckOutcome =>
        lost.includes(ack.lockToken)
          ? {
              ok: false,
              error: ProviderError.permanent('ack_orchestration_item', 'Invalid lock token'),
            }
          : { ok: true },
      ),
    );
  };
  return { calls, ackOrchestrationItems };
}

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnBatchAcks', () => {
  it('sends the turns of a batch in one call once every turn has acknowledged', async () => {
    const { calls, ackOrchestrationItems } = recorder();
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b', 'c'], null);

    const a = acks.commit('a', turn('a'));
    const b = acks.commit('b', turn('b'));
    await nextTick();
    expect(calls).toEqual([]);
    const c = acks.commit('c', turn('c'));
    await Promise.all([a, b, c]);

    expect(calls).toEqual([['a', 'b', 'c']]);
  });

  it('does not wait for a turn that finished without acknowledging', async () => {
    const { calls, ackOrchestrationItems } = recorder();
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b'], null);

    const a = acks.commit('a', turn('a'));
    acks.finish('b');
    await a;

    expect(calls).toEqual([['a']]);
  });

  it('fails only the turn whose commit failed, with its own error', async () => {
    const { ackOrchestrationItems } = recorder(['b']);
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b'], null);

    const a = acks.commit('a', turn('a'));
    const b = acks.commit('b', turn('b'));

    await expect(a).resolves.toBeUndefined();
    await expect(b).rejects.toThrow(/Invalid lock token/);
  });

  it('sends an acknowledgement made after the batch went out on its own', async () => {
    const { calls, ackOrchestrationItems } = recorder(['a']);
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b'], null);
    const first = acks.commit('a', turn('a'));
    await acks.commit('b', turn('b'));
    await expect(first).rejects.toThrow();

    // The failed turn records its failure: that commit goes out alone.
    await acks.commit('b2', turn('b2'));

    expect(calls).toEqual([['a', 'b'], ['b2']]);
  });
});

describe('TurnBatchAcks with an activity handoff', () => {
  const scheduling = (lockToken: string, ids: readonly number[]): OrchestrationItemAck => ({
    ...turn(lockToken),
    workerItems: ids.map((id) => ({
      type: 'ActivityExecute',
      instance: lockToken,
      executionId: 1,
      id,
      name: 'Work',
      input: '',
    })),
  });

  /**
   * A handoff with room for `room` activities, taking all the scheduled ones or none, as the
   * worker does; it records how many it was offered and what it adopted.
   */
  function handoff(room: number) {
    const reserved: number[] = [];
    const adopted: string[][] = [];
    const worker: ActivityHandoff = {
      reserve(scheduled) {
        reserved.push(scheduled.length);
        if (scheduled.length > room) return null;
        return {
          claim: {
            maxItems: scheduled.length,
            lockTimeoutMs: 1_000,
            tagFilter: TagFilter.any(),
          },
          adopt: (activities) => adopted.push(activities.map((a) => a.lockToken)),
        };
      },
    };
    return { worker, reserved, adopted };
  }

  it('offers the worker every activity the turns schedule, and hands over those claimed', async () => {
    const claims: (ActivityClaim | undefined)[] = [];
    const ackOrchestrationItems = (
      acks: readonly OrchestrationItemAck[],
      claim?: ActivityClaim,
    ): Promise<OrchestrationItemAckOutcome[]> => {
      claims.push(claim);
      return Promise.resolve(
        acks.map((ack) => ({
          ok: true,
          claimedActivities: ack.workerItems.slice(0, 1).map((item) => ({
            item,
            lockToken: `claimed-${ack.lockToken}`,
            attemptCount: 1,
          })),
        })),
      );
    };
    const { worker, reserved, adopted } = handoff(5);
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b'], worker);

    await Promise.all([
      acks.commit('a', scheduling('a', [1, 2])),
      acks.commit('b', scheduling('b', [1, 2, 3])),
    ]);
    await nextTick();

    expect(reserved).toEqual([5]);
    expect(claims.map((claim) => claim?.maxItems)).toEqual([5]);
    expect(adopted).toEqual([['claimed-a', 'claimed-b']]);
  });

  it('claims nothing for turns that schedule no activity, or when the worker has no room', async () => {
    const { calls, ackOrchestrationItems } = recorder();
    const idle = handoff(5);
    await new TurnBatchAcks(ackOrchestrationItems, ['a'], idle.worker).commit('a', turn('a'));
    const full = handoff(0);
    await new TurnBatchAcks(ackOrchestrationItems, ['b'], full.worker).commit(
      'b',
      scheduling('b', [1]),
    );

    expect(calls).toEqual([['a'], ['b']]);
    expect(idle.reserved).toEqual([]);
    expect(full.reserved).toEqual([1]);
  });

  it('gives the room back when the commit fails as a whole', async () => {
    const { worker, adopted } = handoff(2);
    const failing = () => Promise.reject(new Error('connection lost'));
    const acks = new TurnBatchAcks(failing, ['a'], worker);

    await expect(acks.commit('a', scheduling('a', [1]))).rejects.toThrow('connection lost');
    await nextTick();

    expect(adopted).toEqual([[]]);
  });
});
