import { expect } from 'vitest';
import type { Provider } from '../provider/provider.js';
import { expectProviderError } from './support/fixtures.js';
import { createExecutionChain } from './support/instance-builders.js';
import { adminOf } from './support/provider-expectations.js';
import { defineValidationGroup } from './validation-group.js';

/** A `TestOrch` chain of `count` executions whose last one completed. */
async function createCompletedChain(
  provider: Provider,
  instance: string,
  count: number,
): Promise<void> {
  await createExecutionChain(provider, instance, count, {
    orchestration: 'TestOrch',
    lastStatus: 'Completed',
  });
}

/**
 * duroxide's `provider_validation::prune`: pruning removes old executions by `keepLast` and
 * `completedBefore`, never the current one, one instance or many at once, running instances
 * included.
 */
export const prune = defineValidationGroup('prune', {
  prune_options_combinations: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);

    await createCompletedChain(provider, 'prune-options-test', 4);
    expect(
      await admin.listExecutions('prune-options-test'),
      'Should have 4 executions',
    ).toHaveLength(4);
    const kept = await admin.pruneExecutions('prune-options-test', { keepLast: 2 });
    expect(kept.instancesProcessed).toBe(1);
    const afterKeepLast = await admin.listExecutions('prune-options-test');
    expect(afterKeepLast, 'Should have 2 executions after prune').toHaveLength(2);
    expect(
      afterKeepLast.includes(3) || afterKeepLast.includes(4),
      'Should keep the latest ones (3 and 4)',
    ).toBe(true);

    await createCompletedChain(provider, 'prune-options-empty', 3);
    const current = (await admin.getInstanceInfo('prune-options-empty')).currentExecutionId;
    await admin.pruneExecutions('prune-options-empty', {});
    const afterEmpty = await admin.listExecutions('prune-options-empty');
    expect(
      afterEmpty,
      'Only current execution should remain after empty-options prune',
    ).toHaveLength(1);
    expect(afterEmpty[0], 'The remaining execution should be the current one').toBe(current);
  },

  prune_safety: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);

    await createCompletedChain(provider, 'prune-safety-current', 3);
    await admin.pruneExecutions('prune-safety-current', { keepLast: 0 });
    expect(
      (await admin.getInstanceInfo('prune-safety-current')).currentExecutionId,
      'Current execution should remain',
    ).toBe(3);

    await expectProviderError(
      admin.pruneExecutions('does-not-exist-prune', { keepLast: 1 }),
      'Prune on non-existent instance should error',
    );

    // On a completed instance, no keepLast, 0 and 1 all keep exactly the current execution.
    const cases: Array<[label: string, instance: string, keepLast: number | undefined]> = [
      ['None', 'prune-terminal-none', undefined],
      ['Some(0)', 'prune-terminal-some0', 0],
      ['Some(1)', 'prune-terminal-some1', 1],
    ];
    for (const [label, instance, keepLast] of cases) {
      await createCompletedChain(provider, instance, 4);
      const info = await admin.getInstanceInfo(instance);
      expect(info.status, 'Instance should be terminal').toBe('Completed');

      const result = await admin.pruneExecutions(
        instance,
        keepLast === undefined ? {} : { keepLast },
      );
      const remaining = await admin.listExecutions(instance);
      expect(
        remaining,
        `keep_last=${label}: should have exactly 1 execution remaining`,
      ).toHaveLength(1);
      expect(
        remaining[0],
        `keep_last=${label}: remaining execution should be the current one`,
      ).toBe(info.currentExecutionId);
      expect(
        result.executionsDeleted,
        `keep_last=${label}: should have deleted 3 historical executions`,
      ).toBeGreaterThanOrEqual(3);
    }
  },

  prune_bulk: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    for (let i = 0; i < 3; i++) await createCompletedChain(provider, `prune-bulk-${i}`, 4);

    const result = await admin.pruneExecutionsBulk(
      { instanceIds: ['prune-bulk-0', 'prune-bulk-1'] },
      { keepLast: 1 },
    );
    expect(result.instancesProcessed, 'Should process 2 instances').toBe(2);
    expect(
      result.executionsDeleted,
      'Should delete multiple executions across instances',
    ).toBeGreaterThanOrEqual(4);

    expect(
      await admin.listExecutions('prune-bulk-0'),
      'Instance 0 should have 1 execution',
    ).toHaveLength(1);
    expect(
      await admin.listExecutions('prune-bulk-1'),
      'Instance 1 should have 1 execution',
    ).toHaveLength(1);
    expect(
      await admin.listExecutions('prune-bulk-2'),
      'Instance 2 should still have 4 executions',
    ).toHaveLength(4);
  },

  prune_bulk_includes_running_instances: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const instance = 'prune-running-inst';
    await createExecutionChain(provider, instance, 3, {
      orchestration: 'LongRunning',
      lastStatus: 'Running',
    });

    expect(await admin.listExecutions(instance), 'Should have 3 executions').toHaveLength(3);
    const before = await admin.getInstanceInfo(instance);
    expect(before.status, 'Instance should still be Running').toBe('Running');
    expect(before.currentExecutionId, 'Current execution should be 3').toBe(3);

    const result = await admin.pruneExecutionsBulk({ instanceIds: [instance] }, { keepLast: 1 });
    expect(result.instancesProcessed, 'Should process the running instance').toBe(1);
    expect(result.executionsDeleted, 'Should delete 2 historical executions').toBe(2);

    const remaining = await admin.listExecutions(instance);
    expect(remaining, 'Should have 1 execution remaining').toHaveLength(1);
    expect(remaining[0], 'Remaining execution should be the current one (3)').toBe(3);
    expect(
      (await admin.getInstanceInfo(instance)).status,
      'Instance should still be Running after prune',
    ).toBe('Running');
  },
});
