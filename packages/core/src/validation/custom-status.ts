import { expect } from 'vitest';
import type { Provider } from '../provider/provider.js';
import { createInstance } from './support/fixtures.js';
import { customStatusEvent } from './support/history-events.js';
import { pokeItem, runPokedTurn } from './support/test-turns.js';
import { defineValidationGroup } from './validation-group.js';

/** One turn of execution 1 whose history delta updates the custom status (`null` clears it). */
async function updateCustomStatus(
  provider: Provider,
  instance: string,
  eventId: number,
  status: string | null,
): Promise<void> {
  await runPokedTurn(provider, pokeItem(instance), {
    historyDelta: [customStatusEvent(eventId, instance, 1, status)],
  });
}

/**
 * duroxide's `provider_validation::custom_status`: the provider keeps the last
 * `CustomStatusUpdated` of each ack, counts changes in a version, and answers
 * `getCustomStatus` only when that version is newer than the caller's.
 */
export const customStatus = defineValidationGroup('custom_status', {
  custom_status_set: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'cs-set');
    await updateCustomStatus(provider, 'cs-set', 100, 'progress');

    const result = await provider.getCustomStatus('cs-set', 0);
    expect(result, 'expected custom_status to be present').not.toBeNull();
    expect(result?.customStatus).toBe('progress');
    expect(result?.version).toBe(1);
  },

  custom_status_clear: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'cs-clear');
    await updateCustomStatus(provider, 'cs-clear', 100, 'temp');
    expect((await provider.getCustomStatus('cs-clear', 0))?.customStatus).toBe('temp');

    await updateCustomStatus(provider, 'cs-clear', 101, null);
    const result = await provider.getCustomStatus('cs-clear', 0);
    expect(result, 'version changed, so should return Some').not.toBeNull();
    expect(result?.customStatus, 'custom_status should be NULL after clear').toBeNull();
    expect(result?.version, 'version should be 2 after set + clear').toBe(2);
  },

  custom_status_none_preserves: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'cs-noop');
    await updateCustomStatus(provider, 'cs-noop', 100, 'keep-me');
    await runPokedTurn(provider, pokeItem('cs-noop'));

    const result = await provider.getCustomStatus('cs-noop', 0);
    expect(result).not.toBeNull();
    expect(result?.customStatus, 'None should not modify existing value').toBe('keep-me');
    expect(result?.version, 'version should not increment on None').toBe(1);
  },

  custom_status_version_increments: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'cs-ver');
    const updates: Array<[eventId: number, status: string | null]> = [
      [100, 'a'],
      [101, 'b'],
      [102, null],
    ];
    for (const [index, [eventId, status]] of updates.entries()) {
      await updateCustomStatus(provider, 'cs-ver', eventId, status);
      const result = await provider.getCustomStatus('cs-ver', 0);
      expect(result).not.toBeNull();
      expect(result?.version).toBe(index + 1);
    }
    expect((await provider.getCustomStatus('cs-ver', 0))?.customStatus).toBeNull();
  },

  custom_status_polling_no_change: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'cs-poll');
    await updateCustomStatus(provider, 'cs-poll', 100, 'v1');

    expect(await provider.getCustomStatus('cs-poll', 1), 'no change since version 1').toBeNull();
    expect(await provider.getCustomStatus('cs-poll', 0), 'version 1 > 0').not.toBeNull();
  },

  custom_status_nonexistent_instance: async ({ newProvider }) => {
    const provider = await newProvider();
    expect(await provider.getCustomStatus('does-not-exist', 0)).toBeNull();
  },

  custom_status_default_on_new_instance: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'cs-default');
    expect(
      await provider.getCustomStatus('cs-default', 0),
      'fresh instance has version 0, not > 0',
    ).toBeNull();
  },
});
