import type { Event, FetchedOrchestrationItem, Provider } from '@duro/core';
import { describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';
import { eventOf, externalRaised, FIRST_TURN, startInstance } from './support/turns.js';

// A provider keeps the histories of the instances it runs and asks only for the events written
// since. These tests break stored events that a holder must not read again, and replace an
// instance under the same id, to show what is read and that the history handed out is always
// the stored one.
const database = useTestDatabase();

/** Delivers an external event `name` to `instance` and fetches the turn it makes. */
async function fetchTurn(
  provider: Provider,
  instance: string,
  name: string,
): Promise<FetchedOrchestrationItem> {
  await provider.enqueueForOrchestrator(externalRaised(instance, name), null);
  const fetched = await provider.fetchOrchestrationItem(30_000, 0, null);
  expect(fetched?.item.instance).toBe(instance);
  return fetched as FetchedOrchestrationItem;
}

/** Fetches a turn of `instance` and acknowledges it with the `ExternalEvent` it received. */
async function runTurn(provider: Provider, instance: string, name: string): Promise<Event[]> {
  const turn = await fetchTurn(provider, instance, name);
  expect(turn.item.historyError).toBeNull();
  const event = eventOf(instance, turn.item.history.length + 1, {
    type: 'ExternalEvent',
    name,
    data: '"payload"',
  });
  await provider.ackOrchestrationItem(turn.lockToken, 1, [event], [], [], FIRST_TURN, []);
  return [...turn.item.history];
}

/** Overwrites a stored event with JSON no reader can decode. */
async function breakStoredEvent(
  provider: PostgresProvider,
  instance: string,
  eventId: number,
): Promise<void> {
  await database.query(
    `UPDATE "${provider.schema}".history SET event_data = '{"type":"BrokenByTest"}' ` +
      'WHERE instance_id = $1 AND event_id = $2',
    [instance, eventId],
  );
}

describe('the history cache', () => {
  it('a worker that keeps an instance does not read its earlier events again', async () => {
    const worker = await database.newProvider({}, 'kept');
    const uncached = await database.attach(worker, { historyCacheSize: 0 });
    await startInstance(worker, 'kept');
    await runTurn(worker, 'kept', 'first');
    const stored = await worker.readWithExecution('kept', 1);
    await breakStoredEvent(worker, 'kept', 1);

    // A reader of the whole history now meets the broken event...
    const whole = await fetchTurn(uncached, 'kept', 'second');
    expect(whole.item.historyError).toMatch(/Failed to deserialize history/);
    await uncached.abandonOrchestrationItem(whole.lockToken, null, true);

    // ...and the worker that holds it gets the history it ran, with only the new message read.
    const kept = await worker.fetchOrchestrationItem(30_000, 0, null);
    expect(kept?.item.historyError).toBeNull();
    expect(kept?.item.history).toEqual(stored);
  });

  it('turns another worker took in between arrive as the tail of the held history', async () => {
    const first = await database.newProvider({}, 'shared');
    const second = await database.attach(first);
    await startInstance(first, 'shared');
    await runTurn(first, 'shared', 'a');
    await runTurn(second, 'shared', 'b');
    await runTurn(second, 'shared', 'c');

    const history = await runTurn(first, 'shared', 'd');
    expect(history.map((event) => event.eventId)).toEqual([1, 2, 3, 4]);
    expect(history).toEqual((await first.readWithExecution('shared', 1)).slice(0, 4));
  });

  it('an instance started again under the same id is read whole, shorter or as long', async () => {
    const holder = await database.newProvider({}, 'reborn');
    const other = await database.attach(holder, { historyCacheSize: 0 });
    for (const [instance, turnsAfterRestart] of [
      ['reborn-shorter', 0],
      ['reborn-as-long', 1],
    ] as const) {
      await startInstance(holder, instance);
      await runTurn(holder, instance, 'before');
      await other.deleteInstance(instance, true);
      await startInstance(other, instance);
      for (let i = 0; i < turnsAfterRestart; i++) await runTurn(other, instance, 'after');

      const history = await runTurn(holder, instance, 'next');
      expect(history).toHaveLength(turnsAfterRestart + 1);
      expect(history).toEqual((await holder.readWithExecution(instance, 1)).slice(0, -1));
    }
  });

  it('stays off on a schema whose duroxide track is not at 26', async () => {
    const worker = await database.newProvider({ migrateToVersion: 23 }, 'at_23');
    await startInstance(worker, 'old-schema');
    await runTurn(worker, 'old-schema', 'first');
    await breakStoredEvent(worker, 'old-schema', 1);

    const turn = await fetchTurn(worker, 'old-schema', 'second');
    expect(turn.item.historyError).toMatch(/Failed to deserialize history/);
  });
});
