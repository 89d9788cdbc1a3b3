import type { Event, ExecutionMetadata, Provider } from '@duro/core';
import type { PostgresProvider } from '@duro/provider-postgres';
import { withOverrides } from './with-overrides.js';

/** Told when an instance's final turn committed: `failure` is null when it completed. */
export type InstanceEnded = (instance: string, failure: string | null) => void;

/**
 * Watches a provider's acknowledgements, so the bench learns when an instance finished the
 * moment its last turn commits, without asking the database. Every call is passed through
 * unchanged.
 */
export class CompletionTracker {
  /** Activities acknowledged through the provider. */
  activityAcks = 0;
  /** The provider to hand to the runtime. */
  readonly provider: Provider;

  constructor(inner: PostgresProvider, ended: InstanceEnded) {
    const noteTurn = (historyDelta: readonly Event[], metadata: ExecutionMetadata): void => {
      const instance = historyDelta[0]?.instanceId;
      if (instance === undefined) return;
      if (metadata.status === 'Completed') ended(instance, null);
      if (metadata.status === 'Failed') ended(instance, metadata.output ?? 'failed');
    };
    const countActivityAcks = (count: number): void => {
      this.activityAcks += count;
    };
    this.provider = withOverrides<PostgresProvider>(inner, {
      ackOrchestrationItem: async (...args) => {
        await inner.ackOrchestrationItem(...args);
        const [, , historyDelta, , , metadata] = args;
        noteTurn(historyDelta, metadata);
      },
      ackOrchestrationItems: async (acks, claim) => {
        const outcomes = await inner.ackOrchestrationItems(acks, claim);
        acks.forEach((ack, index) => {
          if (outcomes[index]?.ok === true) noteTurn(ack.historyDelta, ack.metadata);
        });
        return outcomes;
      },
      ackWorkItem: async (...args) => {
        await inner.ackWorkItem(...args);
        countActivityAcks(1);
      },
      ackWorkItems: async (acks) => {
        const outcomes = await inner.ackWorkItems(acks);
        countActivityAcks(outcomes.filter((outcome) => outcome.ok).length);
        return outcomes;
      },
    });
  }
}
