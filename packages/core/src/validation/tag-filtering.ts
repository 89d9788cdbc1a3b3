import { assert, expect } from 'vitest';
import type { FetchedWorkItem } from '../provider/orchestration-item.js';
import type { Provider } from '../provider/provider.js';
import { TagFilter } from '../provider/fetch-filters.js';
import type { WorkItemOf } from '../model/work-item.js';
import { assertFetchedActivity } from './support/fetched-activity.js';
import { activityExecute, eventWithId, startItem, testOrchStarted } from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

/** Activity `id` of execution 1, named `Activity{id}`, with `tag` (`null`: untagged). */
function taggedActivity(
  instance: string,
  id: number,
  tag: string | null,
): WorkItemOf<'ActivityExecute'> {
  const untagged = activityExecute(instance, 1, id, `Activity${id}`, '{}');
  return tag === null ? untagged : { ...untagged, tag };
}

async function enqueueTagged(
  provider: Provider,
  items: readonly [instance: string, id: number, tag: string | null][],
): Promise<void> {
  for (const [instance, id, tag] of items) {
    await provider.enqueueForWorker(taggedActivity(instance, id, tag));
  }
}

function fetchTagged(
  provider: Provider,
  filter: TagFilter,
  lockTimeoutMs = 5_000,
): Promise<FetchedWorkItem | null> {
  return provider.fetchWorkItem(lockTimeoutMs, 0, null, filter);
}

/** Fetches with `filter` and fails the validation if an activity comes back. */
async function expectNothingTagged(
  provider: Provider,
  filter: TagFilter,
  message: string,
): Promise<void> {
  expect(await fetchTagged(provider, filter), message).toBeNull();
}

/** Fetches with `filter` and checks the activity's id and tag (`null`: untagged). */
async function expectNextTagged(
  provider: Provider,
  filter: TagFilter,
  expected: { readonly id: number; readonly tag: string | null },
  message: string,
): Promise<void> {
  assertFetchedActivity(await fetchTagged(provider, filter, 30_000), message, expected);
}

/** duroxide `provider_validation::tag_filtering`: `fetchWorkItem` honours the `TagFilter`. */
export const tagFiltering = defineValidationGroup('tag_filtering', {
  default_only_fetches_untagged: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [
      ['inst-1', 1, null],
      ['inst-1', 2, 'gpu'],
      ['inst-1', 3, null],
    ]);

    const filter = TagFilter.defaultOnly();
    await expectNextTagged(
      provider,
      filter,
      { id: 1, tag: null },
      'Should fetch first untagged item',
    );
    await expectNextTagged(
      provider,
      filter,
      { id: 3, tag: null },
      'Should fetch second untagged item',
    );
    await expectNothingTagged(provider, filter, 'No more untagged items should be available');
  },

  tags_fetches_only_matching: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [
      ['inst-1', 1, null],
      ['inst-1', 2, 'gpu'],
      ['inst-1', 3, 'cpu'],
      ['inst-1', 4, 'gpu'],
    ]);

    const filter = TagFilter.tags(['gpu']);
    await expectNextTagged(provider, filter, { id: 2, tag: 'gpu' }, 'first gpu item');
    await expectNextTagged(provider, filter, { id: 4, tag: 'gpu' }, 'second gpu item');
    await expectNothingTagged(provider, filter, 'No more gpu items');
  },

  default_and_fetches_untagged_and_matching: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [
      ['inst-1', 1, null],
      ['inst-1', 2, 'gpu'],
      ['inst-1', 3, 'cpu'],
    ]);

    const filter = TagFilter.defaultAnd(['gpu']);
    await expectNextTagged(provider, filter, { id: 1, tag: null }, 'Should fetch untagged item');
    await expectNextTagged(provider, filter, { id: 2, tag: 'gpu' }, 'Should fetch gpu item');
    await expectNothingTagged(
      provider,
      filter,
      'cpu-tagged item should not be fetched by DefaultAnd([gpu])',
    );
  },

  none_filter_returns_nothing: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [
      ['inst-1', 1, null],
      ['inst-1', 2, 'gpu'],
    ]);

    await expectNothingTagged(
      provider,
      TagFilter.none(),
      'TagFilter::None should never return items',
    );
  },

  multi_tag_filter: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [
      ['inst-1', 1, 'gpu'],
      ['inst-1', 2, 'tpu'],
      ['inst-1', 3, 'cpu'],
      ['inst-1', 4, null],
    ]);

    const filter = TagFilter.tags(['gpu', 'tpu']);
    assertFetchedActivity(await fetchTagged(provider, filter), 'Should fetch gpu item', {
      tag: 'gpu',
    });
    assertFetchedActivity(await fetchTagged(provider, filter), 'Should fetch tpu item', {
      tag: 'tpu',
    });
    await expectNothingTagged(provider, filter, 'cpu and untagged should not be returned');
  },

  tag_round_trip_preservation: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [['inst-1', 1, 'gpu']]);

    assertFetchedActivity(
      await fetchTagged(provider, TagFilter.tags(['gpu'])),
      'Should fetch tagged item; the tag should be preserved',
      { tag: 'gpu', name: 'Activity1' },
    );
  },

  any_filter_fetches_everything: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [
      ['inst-1', 1, null],
      ['inst-2', 2, 'gpu'],
      ['inst-3', 3, 'cpu'],
    ]);

    const filter = TagFilter.any();
    for (const what of ['untagged', 'gpu-tagged', 'cpu-tagged']) {
      expect(
        await fetchTagged(provider, filter),
        `Any filter should fetch ${what} item`,
      ).not.toBeNull();
    }
    await expectNothingTagged(provider, filter, 'Queue should be empty');
  },

  tag_survives_abandon_and_refetch: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [
      ['inst-1', 1, 'gpu'],
      ['inst-1', 2, null],
    ]);

    const filter = TagFilter.tags(['gpu']);
    const first = await fetchTagged(provider, filter);
    assertFetchedActivity(first, 'Should fetch gpu item', { id: 1, tag: 'gpu' });

    await provider.abandonWorkItem(first.lockToken, null, false);

    const again = await fetchTagged(provider, filter);
    assertFetchedActivity(again, 'Abandoned item should reappear with its tag', {
      id: 1,
      tag: 'gpu',
    });
    expect(
      again.attemptCount,
      'Attempt count should increase after abandon',
    ).toBeGreaterThanOrEqual(2);
    expect(again.lockToken, 'Lock token should differ').not.toBe(first.lockToken);

    assertFetchedActivity(
      await fetchTagged(provider, TagFilter.defaultOnly()),
      'Untagged item should be available',
      { id: 2, tag: null },
    );
  },

  // Three filters side by side on one queue: mutually exclusive (DefaultOnly vs tags), partial
  // overlap (gpu+cpu vs cpu+fpga) and full overlap (Any vs everything else).
  multi_runtime_tag_isolation: async ({ newProvider }) => {
    const provider = await newProvider();
    await enqueueTagged(provider, [
      ['inst-1', 1, null],
      ['inst-2', 2, 'gpu'],
      ['inst-3', 3, 'cpu'],
      ['inst-4', 4, 'fpga'],
      ['inst-5', 5, 'gpu'],
    ]);

    const defaultOnly = TagFilter.defaultOnly();
    await expectNextTagged(
      provider,
      defaultOnly,
      { id: 1, tag: null },
      'DefaultOnly should get untagged item',
    );
    await expectNothingTagged(provider, defaultOnly, 'No more untagged items');

    const gpuCpu = TagFilter.tags(['gpu', 'cpu']);
    const fetchedIds: number[] = [];
    for (const message of [
      'gpu+cpu filter should find item',
      'gpu+cpu filter should find second item',
    ]) {
      const fetched = await fetchTagged(provider, gpuCpu, 30_000);
      assertFetchedActivity(fetched, message);
      fetchedIds.push(fetched.item.id);
    }
    expect(
      fetchedIds.sort((a, b) => a - b),
      'gpu+cpu filter should get gpu(2) and cpu(3)',
    ).toEqual([2, 3]);

    // cpu(3) is locked by the gpu+cpu fetch, so cpu+fpga finds only fpga(4).
    const cpuFpga = TagFilter.tags(['cpu', 'fpga']);
    await expectNextTagged(
      provider,
      cpuFpga,
      { id: 4, tag: 'fpga' },
      'cpu+fpga filter should find fpga item',
    );
    await expectNothingTagged(
      provider,
      cpuFpga,
      'cpu locked + fpga consumed = nothing for cpu+fpga',
    );

    const any = TagFilter.any();
    await expectNextTagged(
      provider,
      any,
      { id: 5, tag: 'gpu' },
      'Any filter should find remaining gpu item',
    );
    await expectNothingTagged(provider, any, 'All items consumed or locked');
  },

  // The dispatcher hands activities to the provider through ackOrchestrationItem; their tags must
  // be stored there too, not only by enqueueForWorker.
  tag_preserved_through_ack_orchestration_item: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'tag-ack-inst';
    await provider.enqueueForOrchestrator(startItem(instance), null);
    const turn = await provider.fetchOrchestrationItem(30_000, 0, null);
    assert(turn !== null, 'should get orchestration item');

    await provider.ackOrchestrationItem(
      turn.lockToken,
      1,
      [eventWithId(1, instance, 1, null, testOrchStarted())],
      [
        { ...activityExecute(instance, 1, 10, 'GpuWork', '"model-v3"'), tag: 'gpu' },
        activityExecute(instance, 1, 11, 'CpuWork', '"data"'),
      ],
      [],
      {},
      [],
    );

    const untagged = await fetchTagged(provider, TagFilter.defaultOnly(), 30_000);
    assertFetchedActivity(untagged, 'DefaultOnly should get the untagged activity', {
      name: 'CpuWork',
      tag: null,
    });
    await provider.ackWorkItem(untagged.lockToken, null);

    await expectNothingTagged(
      provider,
      TagFilter.defaultOnly(),
      'DefaultOnly must NOT see gpu-tagged item',
    );

    assertFetchedActivity(
      await fetchTagged(provider, TagFilter.tags(['gpu']), 30_000),
      'Tags([gpu]) should get the gpu-tagged activity',
      { name: 'GpuWork', tag: 'gpu' },
    );
  },
});
