import { expect } from 'vitest';
import type { Provider } from '../../provider/provider.js';
import { createInstance, expectProviderError } from '../support/fixtures.js';
import { createChildInstance, createCompletedInstance } from '../support/instance-builders.js';
import {
  adminOf,
  expectInstanceExists,
  expectInstanceGone,
} from '../support/provider-expectations.js';
import type { ValidationRun } from '../validation-group.js';

/** The ids of a three-level tree made by {@link createThreeLevelTree}. */
interface ThreeLevelTree {
  readonly root: string;
  readonly child1: string;
  readonly child2: string;
  readonly grandchild: string;
}

/**
 * `root` → `root::sub::2` and `root::sub::3` → `root::sub::3::sub::4`, all completed, the
 * descendants started as sub-orchestrations.
 */
async function createThreeLevelTree(provider: Provider, root: string): Promise<ThreeLevelTree> {
  const tree = {
    root,
    child1: `${root}::sub::2`,
    child2: `${root}::sub::3`,
    grandchild: `${root}::sub::3::sub::4`,
  };
  await createCompletedInstance(provider, root);
  await createChildInstance(provider, tree.child1, root);
  await createChildInstance(provider, tree.child2, root);
  await createChildInstance(provider, tree.grandchild, tree.child2);
  return tree;
}

/**
 * The validations of duroxide's `deletion.rs` about the instance-tree primitives underneath
 * deletion: `listChildren`, `getParentId`, `getInstanceTree` and `deleteInstancesAtomic`.
 * `deletion.ts` lists them in the Rust order.
 */
export const deletionHierarchy = {
  list_children: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const { root, child1, child2, grandchild } = await createThreeLevelTree(
      provider,
      'list-children-root',
    );

    const ofRoot = await admin.listChildren(root);
    expect(ofRoot, 'Root should have 2 direct children').toHaveLength(2);
    expect(ofRoot, 'Should contain child1').toContain(child1);
    expect(ofRoot, 'Should contain child2').toContain(child2);
    expect(ofRoot, 'Should NOT contain grandchild').not.toContain(grandchild);

    const ofChild2 = await admin.listChildren(child2);
    expect(ofChild2, 'child2 should have 1 child').toHaveLength(1);
    expect(ofChild2, 'Should contain grandchild').toContain(grandchild);

    expect(await admin.listChildren(grandchild), 'Leaf should have no children').toEqual([]);
    expect(
      await admin.listChildren('non-existent'),
      'Non-existent instance should return empty',
    ).toEqual([]);

    await admin.deleteInstance(root, true);
  },

  delete_get_parent_id: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const root = 'parent-id-root';
    const child = `${root}::sub::2`;
    await createCompletedInstance(provider, root);
    await createChildInstance(provider, child, root);

    expect(await admin.getParentId(root), 'Root should have no parent').toBeNull();
    expect(await admin.getParentId(child), 'Child should have root as parent').toBe(root);
    await expectProviderError(
      admin.getParentId('non-existent'),
      'Non-existent instance should return error',
    );

    await admin.deleteInstance(root, true);
  },

  delete_get_instance_tree: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const ids = await createThreeLevelTree(provider, 'tree-root');

    const tree = await admin.getInstanceTree(ids.root);
    expect(tree.rootId, 'Root ID should match').toBe(ids.root);
    expect(tree.allIds, 'Tree should have 4 instances').toHaveLength(4);
    expect(tree.allIds.length === 1, 'Tree should have children').toBe(false);
    for (const id of Object.values(ids)) expect(tree.allIds).toContain(id);

    const leafTree = await admin.getInstanceTree(ids.grandchild);
    expect(leafTree.allIds, 'Leaf tree should have 1 instance').toHaveLength(1);
    expect(leafTree.allIds.length === 1, 'Single instance tree should be root-only').toBe(true);

    await admin.deleteInstance(ids.root, true);
  },

  delete_instances_atomic: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const ids = ['atomic-del-1', 'atomic-del-2', 'atomic-del-3'];
    for (const id of ids) await createCompletedInstance(provider, id);
    for (const id of ids) await expectInstanceExists(admin, id);

    // Rollback on failure is covered by delete_instances_atomic_orphan_detection.
    const result = await admin.deleteInstancesAtomic(ids, false);
    expect(result.instancesDeleted, 'Should report deletion').toBeGreaterThanOrEqual(1);
    expect(result.executionsDeleted, 'Should delete at least 3 executions').toBeGreaterThanOrEqual(
      3,
    );
    for (const id of ids) await expectInstanceGone(admin, id, `Instance ${id} should be gone`);
  },

  delete_instances_atomic_force: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const ids = ['atomic-force-completed', 'atomic-force-running'];
    await createCompletedInstance(provider, 'atomic-force-completed');
    await createInstance(provider, 'atomic-force-running');

    await expectProviderError(
      admin.deleteInstancesAtomic(ids, false),
      'Should fail without force when running instance present',
    );
    for (const id of ids) await expectInstanceExists(admin, id);

    const forced = await admin.deleteInstancesAtomic(ids, true);
    expect(forced.instancesDeleted, 'Should delete with force').toBeGreaterThanOrEqual(1);
    for (const id of ids) await expectInstanceGone(admin, id);
  },

  delete_instances_atomic_orphan_detection: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const root = 'orphan-detect-root';
    const child = `${root}::sub::2`;
    await createCompletedInstance(provider, root);
    await createChildInstance(provider, child, root);
    await expectInstanceExists(admin, root);
    await expectInstanceExists(admin, child);

    const error = await expectProviderError(
      admin.deleteInstancesAtomic([root], false),
      'CRITICAL: delete_instances_atomic must fail when it would create orphans',
    );
    expect(
      /child|orphan|tree/.test(error.message.toLowerCase()),
      `Error should mention child/orphan/tree issue: ${error.message}`,
    ).toBe(true);
    await expectInstanceExists(admin, root, 'Root should still exist after failed delete');
    await expectInstanceExists(admin, child, 'Child should still exist after failed delete');

    await expect(
      admin.deleteInstancesAtomic([root, child], false),
      'Delete with complete tree should succeed',
    ).resolves.toBeDefined();
    await expectInstanceGone(admin, root, 'Root should be deleted');
    await expectInstanceGone(admin, child, 'Child should be deleted');
  },
} satisfies Record<string, ValidationRun>;
