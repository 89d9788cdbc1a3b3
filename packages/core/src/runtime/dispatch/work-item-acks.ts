import type { WorkItem } from '../../model/work-item.js';
import type { WorkItemAck } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';

/** Acknowledges one activity: resolves once its ack committed, rejects when it did not. @internal */
export type AcknowledgeWorkItem = (lockToken: string, completion: WorkItem | null) => Promise<void>;

interface PendingAck {
  readonly ack: WorkItemAck;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * How a runtime's worker slots acknowledge activities. With `ackWorkItems`, acknowledgements
 * are coalesced: the ones that arrive in the same turn of the event loop go out in one call, and
 * those arriving while a call is in flight go out together right after it, so completions that
 * finish close together reach the orchestration in one transaction (and, usually, one turn)
 * without any waiting added. Every acknowledgement still succeeds or fails on its own. Without
 * `ackWorkItems`, each goes out alone with `ackWorkItem`.
 * @internal
 */
export function workItemAcknowledger(provider: Provider): AcknowledgeWorkItem {
  const ackWorkItems = provider.ackWorkItems?.bind(provider);
  if (ackWorkItems === undefined) {
    return (lockToken, completion) => provider.ackWorkItem(lockToken, completion);
  }
  let pending: PendingAck[] = [];
  let flushing = false;

  const flush = async (): Promise<void> => {
    flushing = true;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        const outcomes = await ackWorkItems(batch.map((entry) => entry.ack));
        batch.forEach((entry, index) => {
          const outcome = outcomes[index];
          if (outcome === undefined) entry.reject(missingOutcome(index));
          else if (outcome.ok) entry.resolve();
          else entry.reject(outcome.error);
        });
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    flushing = false;
  };

  return (lockToken, completion) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ ack: { lockToken, completion }, resolve, reject });
      if (!flushing && pending.length === 1) setImmediate(() => void flush());
    });
}

function missingOutcome(index: number): Error {
  return new Error(`ackWorkItems returned no outcome for acknowledgement ${index}`);
}
