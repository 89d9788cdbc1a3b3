import { describe, expect, it } from 'vitest';
import type {
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
} from '../../provider/orchestration-item.js';
import { ProviderError } from '../../provider/provider-error.js';
import { TurnBatchAcks } from './turn-batch-acks.js';

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
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b', 'c']);

    const a = acks.acknowledge(turn('a'));
    const b = acks.acknowledge(turn('b'));
    await nextTick();
    expect(calls).toEqual([]);
    const c = acks.acknowledge(turn('c'));
    await Promise.all([a, b, c]);

    expect(calls).toEqual([['a', 'b', 'c']]);
  });

  it('does not wait for a turn that finished without acknowledging', async () => {
    const { calls, ackOrchestrationItems } = recorder();
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b']);

    const a = acks.acknowledge(turn('a'));
    acks.finish('b');
    await a;

    expect(calls).toEqual([['a']]);
  });

  it('fails only the turn whose commit failed, with its own error', async () => {
    const { ackOrchestrationItems } = recorder(['b']);
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b']);

    const a = acks.acknowledge(turn('a'));
    const b = acks.acknowledge(turn('b'));

    await expect(a).resolves.toBeUndefined();
    await expect(b).rejects.toThrow(/Invalid lock token/);
  });

  it('sends an acknowledgement made after the batch went out on its own', async () => {
    const { calls, ackOrchestrationItems } = recorder(['a']);
    const acks = new TurnBatchAcks(ackOrchestrationItems, ['a', 'b']);
    const first = acks.acknowledge(turn('a'));
    await acks.acknowledge(turn('b'));
    await expect(first).rejects.toThrow();

    // The failed turn records its failure: that commit goes out alone.
    await acks.acknowledge(turn('b2'));

    expect(calls).toEqual([['a', 'b'], ['b2']]);
  });
});
