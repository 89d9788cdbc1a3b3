import { expect } from 'vitest';
import type { ProviderAdmin } from '../provider/provider-admin.js';
import { createInstance, sleep } from './support/fixtures.js';
import { createCompletedInstance } from './support/instance-builders.js';
import {
  adminOf,
  expectInstanceExists,
  expectInstanceGone,
} from './support/provider-expectations.js';
import { defineValidationGroup } from './validation-group.js';

/** How many instances one `deleteInstanceBulk` call with `limit` removed. */
async function deleteBatch(admin: ProviderAdmin, limit: number): Promise<number> {
  return (await admin.deleteInstanceBulk({ limit })).instancesDeleted;
}

/**
 * duroxide's `provider_validation::bulk_deletion`: `deleteInstanceBulk` selects terminal root
 * instances by ids, completion time and limit, skips running ones, and takes each root's tree
 * with it.
 */
export const bulkDeletion = defineValidationGroup('bulk_deletion', {
  delete_instance_bulk_filter_combinations: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    for (let i = 0; i < 5; i++) await createCompletedInstance(provider, `bulk-del-filter-${i}`);

    const byIds = await admin.deleteInstanceBulk({
      instanceIds: ['bulk-del-filter-0', 'bulk-del-filter-1'],
    });
    expect(byIds.instancesDeleted, 'Should delete 2 instances by ID').toBe(2);
    await expectInstanceGone(admin, 'bulk-del-filter-0');
    await expectInstanceGone(admin, 'bulk-del-filter-1');
    await expectInstanceExists(admin, 'bulk-del-filter-2');

    const unknown = await admin.deleteInstanceBulk({
      instanceIds: ['does-not-exist-1', 'does-not-exist-2'],
    });
    expect(unknown.instancesDeleted, 'Non-existent IDs should return 0 deleted').toBe(0);

    const everything = await admin.deleteInstanceBulk({});
    expect(
      everything.instancesDeleted,
      'Empty filter should delete remaining terminal instances',
    ).toBeGreaterThanOrEqual(3);
    for (let i = 2; i < 5; i++) await expectInstanceGone(admin, `bulk-del-filter-${i}`);
  },

  delete_instance_bulk_safety_and_limits: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createCompletedInstance(provider, 'bulk-del-safe-completed-1');
    await createCompletedInstance(provider, 'bulk-del-safe-completed-2');
    await createInstance(provider, 'bulk-del-safe-running-1');
    await createInstance(provider, 'bulk-del-safe-running-2');

    const mixed = await admin.deleteInstanceBulk({
      instanceIds: [
        'bulk-del-safe-completed-1',
        'bulk-del-safe-completed-2',
        'bulk-del-safe-running-1',
        'bulk-del-safe-running-2',
      ],
    });
    expect(mixed.instancesDeleted, 'Should only delete completed instances').toBe(2);
    await expectInstanceExists(
      admin,
      'bulk-del-safe-running-1',
      'Running instance should not be deleted',
    );
    await expectInstanceExists(
      admin,
      'bulk-del-safe-running-2',
      'Running instance should not be deleted',
    );

    for (let i = 0; i < 4; i++) await createCompletedInstance(provider, `bulk-del-batch-${i}`);
    expect(await deleteBatch(admin, 2), 'First batch should delete 2').toBe(2);
    expect(await deleteBatch(admin, 2), 'Second batch should delete 2').toBe(2);
    expect(await deleteBatch(admin, 2), 'Third batch should delete 0 (all gone)').toBe(0);
  },

  delete_instance_bulk_completed_before_filter: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const instanceIds = ['bulk-del-time-1', 'bulk-del-time-2'];

    // The pauses keep both cutoffs a clear millisecond away from the completion stamps.
    const beforeCreation = Date.now();
    await sleep(10);
    for (const instance of instanceIds) await createCompletedInstance(provider, instance);
    await sleep(10);
    const afterCreation = Date.now();

    const early = await admin.deleteInstanceBulk({ instanceIds, completedBefore: beforeCreation });
    expect(
      early.instancesDeleted,
      'No instances should be deleted - they were completed after the cutoff',
    ).toBe(0);
    await expectInstanceExists(admin, 'bulk-del-time-1', 'Instance 1 should still exist');
    await expectInstanceExists(admin, 'bulk-del-time-2', 'Instance 2 should still exist');

    const late = await admin.deleteInstanceBulk({ instanceIds, completedBefore: afterCreation });
    expect(
      late.instancesDeleted,
      'Both instances should be deleted - they were completed before the cutoff',
    ).toBe(2);
    await expectInstanceGone(admin, 'bulk-del-time-1', 'Instance 1 should be deleted');
    await expectInstanceGone(admin, 'bulk-del-time-2', 'Instance 2 should be deleted');
  },

  delete_instance_bulk_cascades_to_children: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const tree: Array<[instance: string, parent: string | null]> = [
      ['bulk-del-cascade-parent1', null],
      ['bulk-del-cascade-child1', 'bulk-del-cascade-parent1'],
      ['bulk-del-cascade-parent2', null],
      ['bulk-del-cascade-child2a', 'bulk-del-cascade-parent2'],
      ['bulk-del-cascade-child2b', 'bulk-del-cascade-parent2'],
      ['bulk-del-cascade-child2c', 'bulk-del-cascade-parent2'],
      ['bulk-del-cascade-standalone', null],
    ];
    for (const [instance, parent] of tree)
      await createCompletedInstance(provider, instance, parent);
    for (const [instance] of tree) await expectInstanceExists(admin, instance);

    const result = await admin.deleteInstanceBulk({
      instanceIds: tree.filter(([, parent]) => parent === null).map(([instance]) => instance),
    });
    // 3 roots, 1 child of parent1 and 3 children of parent2.
    expect(result.instancesDeleted, 'Should delete all roots and their children').toBe(7);
    for (const [instance, parent] of tree) {
      await expectInstanceGone(
        admin,
        instance,
        parent === null ? `${instance} should be deleted` : `${instance} should be cascade deleted`,
      );
    }
  },
});
