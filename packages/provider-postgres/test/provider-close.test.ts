import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { startOrchestration } from './support/turns.js';

const database = useTestDatabase();

describe('closing a provider', () => {
  it('answers the calls made before close, then refuses new ones', async () => {
    const provider = await database.newProvider();
    await provider.enqueueForOrchestrator(startOrchestration('kept'), null);
    // Each call is still waiting for a connection of the pool when close starts.
    const reading = provider.readWithExecution('kept', 1);
    const peeking = provider.fetchOrchestrationItem(30_000, 0, null);
    await provider.close();

    await expect(reading).resolves.toEqual([]);
    await expect(peeking).resolves.toMatchObject({ item: { instance: 'kept' } });
    await expect(provider.read('kept')).rejects.toThrow('the provider is closed');
  });
});
