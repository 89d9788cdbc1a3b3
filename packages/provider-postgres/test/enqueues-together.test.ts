import { ProviderError, type WorkItem } from '@duro/core';
import { describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';
import { startOrchestration } from './support/turns.js';

// The provider sends the enqueueForOrchestrator calls of one tick of the event loop in one
// statement. A row's xmin names the transaction that wrote it, so the tests read from it how
// the calls were committed.
const database = useTestDatabase();

function raised(instance: string, name: string): WorkItem {
  return { type: 'ExternalRaised', instance, name, data: '"payload"' };
}

interface QueuedMessage {
  readonly instance_id: string;
  readonly work_item: string;
  readonly tx: string;
}

async function queued(provider: PostgresProvider): Promise<QueuedMessage[]> {
  return database.query<QueuedMessage>(
    `SELECT instance_id, work_item, xmin::text AS tx
     FROM "${provider.schema}".orchestrator_queue ORDER BY id`,
  );
}

describe('enqueues made together', () => {
  it('commits the calls of one turn in one transaction, in call order', async () => {
    const provider = await database.newProvider();
    await Promise.all([
      provider.enqueueForOrchestrator(startOrchestration('a'), null),
      provider.enqueueForOrchestrator(raised('b', 'first'), null),
      provider.enqueueForOrchestrator(startOrchestration('c'), null),
      provider.enqueueForOrchestrator(raised('b', 'second'), null),
    ]);
    await provider.enqueueForOrchestrator(startOrchestration('d'), null);

    const rows = await queued(provider);
    expect(rows.map((row) => row.instance_id)).toEqual(['a', 'b', 'c', 'b', 'd']);
    expect(JSON.parse(rows[1]?.work_item ?? '')).toMatchObject({
      ExternalRaised: { name: 'first' },
    });
    expect(JSON.parse(rows[3]?.work_item ?? '')).toMatchObject({
      ExternalRaised: { name: 'second' },
    });
    const [first, , , , later] = rows.map((row) => row.tx);
    expect(new Set(rows.slice(0, 4).map((row) => row.tx))).toEqual(new Set([first]));
    expect(later).not.toBe(first);
  });

  it('commits a burst bigger than one statement takes in several transactions, in call order', async () => {
    const provider = await database.newProvider();
    const instances = Array.from({ length: 2_500 }, (_, index) => `burst-${index}`);
    await Promise.all(
      instances.map((instance) =>
        provider.enqueueForOrchestrator(startOrchestration(instance), null),
      ),
    );

    const rows = await queued(provider);
    expect(rows.map((row) => row.instance_id)).toEqual(instances);
    const transactions = [...new Set(rows.map((row) => row.tx))];
    expect(transactions).toHaveLength(3);
    expect(rows.filter((row) => row.tx === transactions[0])).toHaveLength(1_000);
  });

  it('commits the others when one call of the turn fails, and fails only that one', async () => {
    const provider = await database.newProvider();
    // PostgreSQL refuses a NUL character in text, so the group's statement fails as a whole.
    const outcomes = await Promise.allSettled([
      provider.enqueueForOrchestrator(startOrchestration('good-1'), null),
      provider.enqueueForOrchestrator(startOrchestration('bad\u0000instance'), null),
      provider.enqueueForOrchestrator(startOrchestration('good-2'), null),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const failure = (outcomes[1] as PromiseRejectedResult).reason as unknown;
    expect(ProviderError.isInstance(failure) && !failure.isRetryable()).toBe(true);
    expect((failure as Error).message).toMatch(/^enqueue_orchestrator_work: /);
    expect((await queued(provider)).map((row) => row.instance_id)).toEqual(['good-1', 'good-2']);
  });

  it('rejects an activity for the worker queue before it joins a group', async () => {
    const provider = await database.newProvider();
    const activity: WorkItem = {
      type: 'ActivityExecute',
      instance: 'e',
      executionId: 1,
      id: 1,
      name: 'Work',
      input: '1',
    };
    const outcomes = await Promise.allSettled([
      provider.enqueueForOrchestrator(activity, null),
      provider.enqueueForOrchestrator(startOrchestration('f'), null),
    ]);

    expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({
      message:
        'enqueue_orchestrator_work: ActivityExecute should go to worker queue, not orchestrator queue',
    });
    expect(outcomes[1]?.status).toBe('fulfilled');
    expect((await queued(provider)).map((row) => row.instance_id)).toEqual(['f']);
  });

  it('sends the calls made before close', async () => {
    const provider = await database.newProvider();
    const enqueued = provider.enqueueForOrchestrator(startOrchestration('before-close'), null);
    await provider.close();

    await expect(enqueued).resolves.toBeUndefined();
    expect((await queued(provider)).map((row) => row.instance_id)).toEqual(['before-close']);
    await expect(
      provider.enqueueForOrchestrator(startOrchestration('after-close'), null),
    ).rejects.toThrow('enqueue_orchestrator_work: the provider is closed');
  });
});
