import type { FetchedOrchestrationItem, WorkItem } from '@duro/core';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { eventOf, externalRaised, startInstance } from './support/turns.js';

const database = useTestDatabase();

const LOCK_TIMEOUT_MS = 30_000;

function messageTypes(fetched: FetchedOrchestrationItem | null): string[] {
  return (fetched?.item.messages ?? []).map((message: WorkItem) =>
    message.type === 'ExternalRaised' ? `ExternalRaised:${message.name}` : message.type,
  );
}

describe('the claim of an instance between two executions', () => {
  it(
    "takes the successor's start with the messages that waited for it, even when the worker " +
      "that continued the instance as new stamped it after the fetching worker's clock",
    async () => {
      const onTime = await database.newProvider({}, 'can_claim');
      // A worker whose clock reads ahead stands for any ack stamped after a fetch took its
      // reading: one that waited for a pool connection, or ran on another machine.
      const ahead = await database.attach(onTime, { nowMs: () => Date.now() + 5_000 });
      const instance = 'continued';
      await startInstance(onTime, instance);

      await onTime.enqueueForOrchestrator(externalRaised(instance, 'first'), null);
      const turn = await onTime.fetchOrchestrationItem(LOCK_TIMEOUT_MS, 0, null);
      expect(messageTypes(turn)).toEqual(['ExternalRaised:first']);
      // Arrives while the turn runs; a message delayed on purpose must stay hidden.
      await onTime.enqueueForOrchestrator(externalRaised(instance, 'during-turn'), null);
      await onTime.enqueueForOrchestrator(externalRaised(instance, 'delayed'), 60_000);
      await ahead.ackOrchestrationItem(
        (turn as FetchedOrchestrationItem).lockToken,
        1,
        [
          eventOf(instance, 2, { type: 'ExternalEvent', name: 'first', data: '"payload"' }),
          eventOf(instance, 3, { type: 'OrchestrationContinuedAsNew', input: '{}' }),
        ],
        [],
        [
          {
            type: 'ContinueAsNew',
            instance,
            orchestration: 'Sample',
            input: '{}',
            version: '1.0.0',
            carryForwardEvents: [],
          },
        ],
        { status: 'ContinuedAsNew', output: '{}' },
        [],
      );

      const next = await onTime.fetchOrchestrationItem(LOCK_TIMEOUT_MS, 0, null);
      expect(next?.item.history.at(-1)?.kind.type).toBe('OrchestrationContinuedAsNew');
      expect(messageTypes(next)).toEqual(['ExternalRaised:during-turn', 'ContinueAsNew']);
    },
  );
});
