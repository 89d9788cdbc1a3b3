import type { WorkItemAckOutcome } from '../../provider/orchestration-item.js';

/** One acknowledgement queued for a batched call, and the caller waiting on it. @internal */
export interface QueuedAck<Ack> {
  readonly ack: Ack;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Sends the queued acknowledgements in one `call` and settles each caller with its own outcome:
 * resolved when it committed, rejected with its error when it did not, and every caller rejected
 * with the call's error when the call as a whole failed.
 * @internal
 */
export async function sendTogether<Ack>(
  queued: readonly QueuedAck<Ack>[],
  call: (acks: Ack[]) => Promise<readonly WorkItemAckOutcome[]>,
  callName: string,
): Promise<void> {
  try {
    const outcomes = await call(queued.map((entry) => entry.ack));
    queued.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome === undefined) {
        entry.reject(new Error(`${callName} returned no outcome for acknowledgement ${index}`));
      } else if (outcome.ok) entry.resolve();
      else entry.reject(outcome.error);
    });
  } catch (error) {
    for (const entry of queued) entry.reject(error);
  }
}
