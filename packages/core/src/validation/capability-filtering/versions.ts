import { expect } from 'vitest';
import type { ExecutionMetadata } from '../../provider/execution-metadata.js';
import type { Provider } from '../../provider/provider.js';
import { eventWithId, startItem } from '../support/fixtures.js';
import {
  expectFetchable,
  expectNotFetchable,
  filterForRange,
  ping,
  seedInstanceWithVersion,
  semver,
  startedEventStamped,
} from './pinned-instances.js';
import type { ValidationRun } from '../validation-group.js';

const TEST_ORCH = { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0' } as const;

/** Acknowledges a turn of execution 1 that writes only `metadata`. */
function ackMetadataOnly(
  provider: Provider,
  lockToken: string,
  metadata: ExecutionMetadata,
): Promise<void> {
  return provider.ackOrchestrationItem(lockToken, 1, [], [], [], metadata, []);
}

/**
 * Creates `instance` the way data from before pinning looks: its start is acknowledged with an
 * event stamped `stamp` but no pinned version in the metadata. Leaves no visible work.
 */
async function createUnpinned(provider: Provider, instance: string, stamp: string): Promise<void> {
  await provider.enqueueForOrchestrator(startItem(instance), null);
  const fetched = await expectFetchable(provider, null, `the start of ${instance} is fetchable`);
  await provider.ackOrchestrationItem(
    fetched.lockToken,
    1,
    [startedEventStamped(instance, stamp)],
    [],
    [],
    { ...TEST_ORCH },
    [],
  );
}

/**
 * The first `capability_filtering` validations, in duroxide's order: filtering by the pinned
 * version stored from ack metadata, per execution, at the range bounds and under contention.
 */
export const capabilityVersionValidations: Record<string, ValidationRun> = {
  fetch_with_filter_none_returns_any_item: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-1', semver(1, 2, 3));

    await expectFetchable(provider, null, 'filter=None should return any item');
  },

  fetch_with_compatible_filter_returns_item: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-2', semver(1, 2, 3));

    const filter = filterForRange(semver(1, 0, 0), semver(1, 9, 9));
    await expectFetchable(provider, filter, 'Compatible filter should return item');
  },

  fetch_with_incompatible_filter_skips_item: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-3', semver(1, 2, 3));

    const filter = filterForRange(semver(2, 0, 0), semver(2, 9, 9));
    await expectNotFetchable(provider, filter, 'Incompatible filter should return None');
  },

  fetch_filter_skips_incompatible_selects_compatible: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-v1', semver(1, 0, 0));
    await seedInstanceWithVersion(provider, 'inst-v2', semver(2, 0, 0));

    const v2 = await expectFetchable(
      provider,
      filterForRange(semver(2, 0, 0), semver(2, 9, 9)),
      'Should return v2 instance',
    );
    expect(v2.item.instance).toBe('inst-v2');
    await provider.abandonOrchestrationItem(v2.lockToken, null, true);

    const v1 = await expectFetchable(
      provider,
      filterForRange(semver(1, 0, 0), semver(1, 9, 9)),
      'Should return v1 instance',
    );
    expect(v1.item.instance).toBe('inst-v1');
  },

  fetch_filter_does_not_lock_skipped_instances: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-5', semver(1, 0, 0));

    const incompatible = filterForRange(semver(2, 0, 0), semver(2, 9, 9));
    await expectNotFetchable(provider, incompatible, 'Incompatible filter should return None');
    const compatible = filterForRange(semver(0, 0, 0), semver(1, 9, 9));
    await expectFetchable(
      provider,
      compatible,
      'Instance should not have been locked by incompatible fetch',
    );
  },

  // An execution without a pinned version (written before pinning existed) passes every filter.
  fetch_filter_null_pinned_version_always_compatible: async ({ newProvider }) => {
    const provider = await newProvider();
    await createUnpinned(provider, 'inst-null', '0.0.0');
    await ping(provider, 'inst-null');

    const filter = filterForRange(semver(99, 0, 0), semver(99, 9, 9));
    await expectFetchable(provider, filter, 'NULL pinned version should be always compatible');
  },

  fetch_filter_boundary_versions: async ({ newProvider }) => {
    const provider = await newProvider();
    const filter = filterForRange(semver(1, 0, 0), semver(1, 9, 99));

    await seedInstanceWithVersion(provider, 'v1-low', semver(1, 0, 0));
    const low = await expectFetchable(provider, filter, 'v1.0.0 should be within [1.0.0, 1.9.99]');
    expect(low.item.instance).toBe('v1-low');
    await provider.abandonOrchestrationItem(low.lockToken, null, true);

    await seedInstanceWithVersion(provider, 'v1-high', semver(1, 9, 99));
    const high = await expectFetchable(
      provider,
      filter,
      'v1.9.99 should be within [1.0.0, 1.9.99]',
    );
    await provider.abandonOrchestrationItem(high.lockToken, null, true);

    // A second store keeps the v1 instances above out of the way.
    const other = await newProvider();
    await seedInstanceWithVersion(other, 'v2-exact', semver(2, 0, 0));
    await expectNotFetchable(other, filter, 'v2.0.0 should NOT be within [1.0.0, 1.9.99]');
    await expectFetchable(other, null, 'v2-exact should be fetchable without filter');
  },

  pinned_version_stored_via_ack_metadata: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-8', semver(3, 1, 4));

    const filter = filterForRange(semver(3, 0, 0), semver(3, 9, 9));
    await expectFetchable(provider, filter, 'Version stored via metadata should be filterable');
  },

  pinned_version_immutable_across_ack_cycles: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-9', semver(1, 0, 0));

    const filter = filterForRange(semver(0, 0, 0), semver(1, 9, 9));
    const second = await expectFetchable(
      provider,
      filter,
      'the seeded instance should pass the filter',
    );
    expect(second.item.instance).toBe('inst-9');
    // A later turn's metadata carries no pinned version; the stored one must stay.
    await ackMetadataOnly(provider, second.lockToken, { ...TEST_ORCH });
    await ping(provider, 'inst-9', 'ping2');

    await expectFetchable(provider, filter, 'Pinned version should persist across ack cycles');
  },

  // Execution 2 is pinned by its own first ack, not by what execution 1 was pinned to.
  continue_as_new_execution_gets_own_pinned_version: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-can';
    await seedInstanceWithVersion(provider, instance, semver(1, 0, 0));

    const last = await expectFetchable(
      provider,
      filterForRange(semver(0, 0, 0), semver(1, 9, 9)),
      'execution 1 should pass the v1 filter',
    );
    await provider.ackOrchestrationItem(
      last.lockToken,
      1,
      [eventWithId(2, instance, 1, null, { type: 'OrchestrationContinuedAsNew', input: '{}' })],
      [],
      [
        {
          type: 'ContinueAsNew',
          instance,
          orchestration: 'TestOrch',
          input: '{}',
          version: '1.0.0',
          carryForwardEvents: [],
        },
      ],
      { status: 'ContinuedAsNew', ...TEST_ORCH },
      [],
    );

    const successor = await expectFetchable(
      provider,
      null,
      'the ContinueAsNew message should be fetchable',
    );
    await provider.ackOrchestrationItem(
      successor.lockToken,
      2,
      [startedEventStamped(instance, '2.0.0', 2)],
      [],
      [],
      { ...TEST_ORCH, pinnedDuroxideVersion: semver(2, 0, 0) },
      [],
    );
    await ping(provider, instance);

    const v2 = await expectFetchable(
      provider,
      filterForRange(semver(2, 0, 0), semver(2, 9, 9)),
      'Should return item with v2 filter after ContinueAsNew',
    );
    expect(v2.item.instance).toBe(instance);
    await provider.abandonOrchestrationItem(v2.lockToken, null, true);

    await expectNotFetchable(
      provider,
      filterForRange(semver(1, 0, 0), semver(1, 9, 9)),
      'v1.x filter must NOT match execution 2 — pinned version should be 2.0.0, not inherited 1.0.0',
    );
  },

  filter_with_empty_supported_versions_returns_nothing: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-empty', semver(1, 0, 0));

    await expectNotFetchable(
      provider,
      { supportedDuroxideVersions: [] },
      'Empty supported versions should return None',
    );
  },

  concurrent_filtered_fetch_no_double_lock: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-conc', semver(1, 0, 0));

    const filter = filterForRange(semver(0, 0, 0), semver(1, 9, 9));
    await expectFetchable(provider, filter, 'First fetch should succeed');
    await expectNotFetchable(provider, filter, 'Second fetch should return None (instance locked)');
  },

  // A pinned version first given on a later turn (a backfill) is stored too.
  ack_stores_pinned_version_via_metadata_update: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-backfill';
    await createUnpinned(provider, instance, '1.2.3');
    await ping(provider, instance);

    const backfill = await expectFetchable(provider, null, 'the ping should be fetchable');
    await ackMetadataOnly(provider, backfill.lockToken, {
      ...TEST_ORCH,
      pinnedDuroxideVersion: semver(1, 2, 3),
    });
    await ping(provider, instance, 'ping2');

    const filter = filterForRange(semver(1, 0, 0), semver(1, 9, 9));
    await expectFetchable(provider, filter, 'Backfilled pinned version should be filterable');
  },

  // Write-once pinning is the runtime's rule, not the provider's: the provider stores what the
  // metadata says.
  provider_updates_pinned_version_when_told: async ({ newProvider }) => {
    const provider = await newProvider();
    await seedInstanceWithVersion(provider, 'inst-update', semver(1, 0, 0));

    const turn = await expectFetchable(
      provider,
      filterForRange(semver(0, 0, 0), semver(1, 9, 9)),
      'the seeded instance should pass the v1 filter',
    );
    await ackMetadataOnly(provider, turn.lockToken, {
      ...TEST_ORCH,
      pinnedDuroxideVersion: semver(2, 0, 0),
    });
    await ping(provider, 'inst-update', 'ping2');

    const v2 = await expectFetchable(
      provider,
      filterForRange(semver(2, 0, 0), semver(2, 0, 0)),
      'Provider should have updated pinned version to 2.0.0',
    );
    await provider.abandonOrchestrationItem(v2.lockToken, null, true);

    await expectNotFetchable(
      provider,
      filterForRange(semver(1, 0, 0), semver(1, 0, 0)),
      'Should no longer match v1 filter — version was updated to v2',
    );
  },
};
