import type { Event, ExecutionMetadata, Provider } from '@duro/core';
import type { PostgresProvider } from '@duro/provider-postgres';
import { withOverrides } from './with-overrides.js';

/**
 * Watches a provider's acknowledgements, so the bench learns when an instance finished the
 * moment its last turn commits, without asking the database. Every call is passed through
 * unchanged.
 */
export class CompletionTracker {
  private readonly waiters = new Map<string, (failure: string | null) => void>();
  /** Activities acknowledged through the provider. */
  activityAcks = 0;
  /** The provider to hand to the runtime and client. */
  readonly provider: Provider;

  constructor(inner: PostgresProvider) {
    const noteTurn = (historyDelta: readonly Event[], metadata: ExecutionMetadata): void => {
      const instance = historyDelta[0]?.instanceId;
      if (instance === undefined) return;
      if (metadata.status === 'Completed') this.finish(instance, null);
      if (metadata.status === 'Failed') this.finish(instance, metadata.output ?? 'failed');
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

  /**
   * Resolves when `instance` completes, rejects when it fails. Call it before starting the
   * instance, so a completion is never missed.
   */
  completion(instance: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.set(instance, (failure) => {
        if (failure === null) resolve();
        else reject(new Error(`instance ${instance} failed: ${failure}`));
      });
    });
  }

  private finish(instance: string, failure: string | null): void {
    const waiter = this.waiters.get(instance);
    if (waiter === undefined) return;
    this.waiters.delete(instance);
    waiter(failure);
  }
}
