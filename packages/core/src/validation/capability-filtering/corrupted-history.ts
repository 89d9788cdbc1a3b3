import { assert, expect } from 'vitest';
import { errorDisplayMessage, type ErrorDetails } from '../../model/error-details.js';
import type { SemverVersion } from '../../model/semver.js';
import type { FetchedOrchestrationItem } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { eventWithId, sleep } from '../support/fixtures.js';
import {
  fetchWithFilter,
  filterForRange,
  seedInstanceWithVersion,
  semver,
} from './pinned-instances.js';
import type { ProviderFactory } from '../provider-factory.js';
import type { ValidationRun } from '../validation-group.js';

async function seedAndCorruptHistory(
  factory: ProviderFactory,
  provider: Provider,
  instance: string,
  pinned: SemverVersion,
): Promise<void> {
  await seedInstanceWithVersion(provider, instance, pinned);
  await factory.corruptInstanceHistory(provider, instance);
}

/**
 * Fails the validation unless the fetch returned `instance` with `historyError` set; `message`
 * says which fetch it was.
 */
function assertHistoryError(
  fetched: FetchedOrchestrationItem | null,
  message: string,
): asserts fetched is FetchedOrchestrationItem {
  assert(fetched !== null, `${message}: expected an item with history_error, got none`);
  expect(fetched.item.historyError, `${message}: history_error should be set`).not.toBeNull();
}

/**
 * Fetches a corrupted instance `cycles` times, each time abandoning it with its attempt counted
 * and waiting for the short lock to be over, as a runtime that cannot replay it would.
 */
async function failToReplay(provider: Provider, cycles: number): Promise<void> {
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const fetched = await fetchWithFilter(provider, null, 50);
    assertHistoryError(fetched, `Fetch #${cycle}`);
    await provider.abandonOrchestrationItem(fetched.lockToken, null, false);
    await sleep(100);
  }
}

/**
 * The last `capability_filtering` validations, in duroxide's order: a history that cannot be
 * decoded is reported through `historyError` (never a failed fetch), keeps counting attempts,
 * is filtered before decoding, and can still be terminated by an append-only ack. Also the
 * first-range limitation of filters with several ranges.
 */
export const capabilityCorruptedHistoryValidations: Record<string, ValidationRun> = {
  fetch_corrupted_history_filtered_vs_unfiltered: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const instance = 'inst-corrupt-39';
    await seedAndCorruptHistory(factory, provider, instance, semver(1, 0, 0));

    // An instance the filter excludes is never decoded, so its history cannot fail the fetch.
    await expect(
      fetchWithFilter(provider, filterForRange(semver(2, 0, 0), semver(2, 9, 9))),
      'Filtered fetch should return None, not an error, for an excluded version',
    ).resolves.toBeNull();

    const fetched = await fetchWithFilter(provider, null);
    assertHistoryError(fetched, 'Unfiltered fetch of corrupted history');
    expect(fetched.item.history, 'History should be empty when deserialization fails').toEqual([]);
    expect(fetched.item.instance).toBe(instance);
    await provider.abandonOrchestrationItem(fetched.lockToken, null, true);
  },

  fetch_deserialization_error_increments_attempt_count: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const instance = 'inst-deser-41';
    await seedAndCorruptHistory(factory, provider, instance, semver(1, 0, 0));

    await failToReplay(provider, 2);

    const maxAttempt = await factory.getMaxAttemptCount(provider, instance);
    expect(
      maxAttempt,
      'attempt_count should be >= 2 after two fetch cycles',
    ).toBeGreaterThanOrEqual(2);
  },

  // What the provider owes the runtime's poison handling: history_error on every fetch and an
  // attempt count that keeps growing until the runtime gives up.
  fetch_deserialization_error_eventually_reaches_poison: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const instance = 'inst-poison-42';
    await seedAndCorruptHistory(factory, provider, instance, semver(1, 0, 0));
    const maxAttempts = 5;

    await failToReplay(provider, maxAttempts);

    const maxAttempt = await factory.getMaxAttemptCount(provider, instance);
    expect(
      maxAttempt,
      `attempt_count should be >= ${maxAttempts} after ${maxAttempts} fetch cycles`,
    ).toBeGreaterThanOrEqual(maxAttempts);
  },

  // Had the provider decoded before filtering, the excluded instance would come back with
  // history_error instead of not at all.
  fetch_filter_applied_before_history_deserialization: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    await seedAndCorruptHistory(factory, provider, 'inst-order-43', semver(99, 0, 0));

    await expect(
      fetchWithFilter(provider, filterForRange(semver(1, 0, 0), semver(2, 0, 0))),
      'Filter should be applied before deserialization; the excluded version is not returned',
    ).resolves.toBeNull();

    const unfiltered = await fetchWithFilter(provider, null);
    assertHistoryError(unfiltered, 'Unfiltered fetch of corrupted history');
    await provider.abandonOrchestrationItem(unfiltered.lockToken, null, true);
  },

  // duroxide's providers consult only the first range of a filter (its "phase 1"); a provider
  // that consults all of them passes too, as long as it never hands out the second range alone.
  fetch_single_range_only_uses_first_range: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-range-a', semver(1, 0, 0));
    await seedInstanceWithVersion(provider, 'inst-range-b', semver(3, 0, 0));
    const filter = {
      supportedDuroxideVersions: [
        { min: semver(1, 0, 0), max: semver(1, 5, 0) },
        { min: semver(3, 0, 0), max: semver(3, 5, 0) },
      ],
    };

    const first = await fetchWithFilter(provider, filter);
    assert(first !== null, 'Should return instance A (first range)');
    expect(
      first.item.instance,
      'Phase 1: only first range should be used, returning instance A',
    ).toBe('inst-range-a');
    await provider.abandonOrchestrationItem(first.lockToken, null, true);

    // inst-range-a, abandoned just now, may come back; inst-range-b must not.
    const second = await fetchWithFilter(provider, filter);
    if (second !== null) {
      expect(
        second.item.instance,
        'Phase 1: second range should be ignored; only inst-range-a (first range) should be returned',
      ).toBe('inst-range-a');
    }
  },

  // How the runtime poisons an instance it cannot decode: it appends OrchestrationFailed at the
  // sentinel event id 99999. The ack must only insert rows, never re-read the corrupted ones.
  ack_appends_event_to_corrupted_history: async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const instance = 'inst-ack-corrupt-45';
    await seedAndCorruptHistory(factory, provider, instance, semver(1, 0, 0));

    const fetched = await fetchWithFilter(provider, null);
    assertHistoryError(fetched, 'Corrupted history should produce history_error');
    const { item, lockToken } = fetched;
    expect(item.history, 'history should be empty when history_error is set').toEqual([]);
    const historyError = item.historyError ?? '';

    const details: ErrorDetails = {
      type: 'Poison',
      attemptCount: 4,
      maxAttempts: 3,
      messageType: {
        type: 'FailedDeserialization',
        instance,
        executionId: item.executionId,
        error: historyError,
      },
      message: historyError,
    };
    await expect(
      provider.ackOrchestrationItem(
        lockToken,
        item.executionId,
        [
          eventWithId(99999, instance, item.executionId, null, {
            type: 'OrchestrationFailed',
            details,
          }),
        ],
        [],
        [],
        {
          status: 'Failed',
          output: errorDisplayMessage(details),
          orchestrationName: item.orchestrationName,
          orchestrationVersion: item.version,
        },
        [],
      ),
      'ack should succeed — provider must not re-serialize existing history',
    ).resolves.toBeUndefined();

    const admin = provider.asManagementCapability?.() ?? null;
    assert(admin !== null, 'provider should have management capability');
    const info = await admin.getInstanceInfo(instance);
    expect(info.status, "Execution status should be 'Failed' after poison ack").toBe('Failed');
    expect(info.output, 'Output should contain deserialization error message').toContain(
      'deserialization failed',
    );
  },
};
