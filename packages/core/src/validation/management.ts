import { expect } from 'vitest';
import type { Event } from '../model/event.js';
import type { Provider } from '../provider/provider.js';
import type { SystemStats } from '../provider/system-stats.js';
import { createInstance, eventWithId, expectPresent, startItem } from './support/fixtures.js';
import { completedEvent, kvSetEvent, startedEvent } from './support/history-events.js';
import { TEST_ORCH_METADATA, pokeItem, runPokedTurn } from './support/test-turns.js';
import { adminOf } from './support/provider-expectations.js';
import { defineValidationGroup } from './validation-group.js';

/** The size figures of an instance that must exist. */
async function statsOf(
  provider: Provider,
  instance: string,
  message: string,
): Promise<SystemStats> {
  return expectPresent(await provider.getInstanceStats(instance), message);
}

/** An `ActivityScheduled` of `Noop`: a turn that keeps its execution running. */
function noopScheduled(eventId: number, instance: string): Event {
  return eventWithId(eventId, instance, 1, null, {
    type: 'ActivityScheduled',
    name: 'Noop',
    input: '{}',
  });
}

/**
 * duroxide's `provider_validation::management`: listings, instance and execution info, system
 * metrics, queue depths, and the size figures of `getInstanceStats`.
 */
export const management = defineValidationGroup('management', {
  list_instances: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    for (let i = 0; i < 3; i++) await createInstance(provider, `mgmt-inst-${i}`);

    const instances = await admin.listInstances();
    expect(instances.length, 'Should list all created instances').toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 3; i++) {
      expect(instances, `Should include instance mgmt-inst-${i}`).toContain(`mgmt-inst-${i}`);
    }
  },

  list_instances_by_status: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await runPokedTurn(provider, startItem('mgmt-completed'), {
      historyDelta: [startedEvent('mgmt-completed', 1)],
      metadata: { ...TEST_ORCH_METADATA, status: 'Completed', output: 'done' },
    });

    const completed = await admin.listInstancesByStatus('Completed');
    expect(completed, 'Should list completed instance').toContain('mgmt-completed');
  },

  list_executions: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await runPokedTurn(provider, startItem('mgmt-multi-exec'), {
      historyDelta: [startedEvent('mgmt-multi-exec', 1)],
    });

    expect(await admin.listExecutions('mgmt-multi-exec'), 'Should list execution 1').toContain(1);
  },

  get_instance_info: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await runPokedTurn(provider, startItem('mgmt-info'), {
      historyDelta: [
        startedEvent('mgmt-info', 1, { name: 'InfoOrch', version: '2.0.0', input: 'test' }),
      ],
      metadata: { orchestrationName: 'InfoOrch', orchestrationVersion: '2.0.0' },
    });

    const info = await admin.getInstanceInfo('mgmt-info');
    expect(info.instanceId).toBe('mgmt-info');
    expect(info.orchestrationName).toBe('InfoOrch');
    expect(info.orchestrationVersion).toBe('2.0.0');
    expect(info.currentExecutionId).toBe(1);
  },

  get_execution_info: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    // No name or version in the metadata: the execution row exists before any instance row.
    await runPokedTurn(provider, startItem('mgmt-exec-info'), {
      historyDelta: [startedEvent('mgmt-exec-info', 1)],
      metadata: { status: 'Completed', output: 'result' },
    });

    const info = await admin.getExecutionInfo('mgmt-exec-info', 1);
    expect(info.executionId).toBe(1);
    expect(info.status).toBe('Completed');
    expect(info.output).toBe('result');
  },

  get_system_metrics: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const baselineInstances = (await admin.getSystemMetrics()).totalInstances;
    await runPokedTurn(provider, startItem('mgmt-metrics'), {
      historyDelta: [startedEvent('mgmt-metrics', 1)],
      metadata: TEST_ORCH_METADATA,
    });

    const updated = await admin.getSystemMetrics();
    expect(updated.totalInstances, 'total_instances should increase').toBeGreaterThan(
      baselineInstances,
    );
    expect(updated.totalEvents, 'total_events should be > 0').toBeGreaterThan(0);
  },

  get_queue_depths: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    const baselineOrchestrator = (await admin.getQueueDepths()).orchestratorQueue;
    await provider.enqueueForOrchestrator(startItem('mgmt-queue'), null);

    expect(
      (await admin.getQueueDepths()).orchestratorQueue,
      'orchestrator_queue should increase',
    ).toBeGreaterThan(baselineOrchestrator);
  },

  get_instance_stats_nonexistent: async ({ newProvider }) => {
    const provider = await newProvider();
    expect(
      await provider.getInstanceStats('no-such-instance'),
      'non-existent instance should return None',
    ).toBeNull();
  },

  get_instance_stats_history: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'stats-hist');

    const stats = await statsOf(provider, 'stats-hist', 'instance should exist');
    expect(stats.historyEventCount, 'should have at least 1 event').toBeGreaterThanOrEqual(1);
    expect(stats.historySizeBytes, 'history should have non-zero size').toBeGreaterThan(0);
    expect(stats.kvUserKeyCount, 'no KV keys set').toBe(0);
    expect(stats.kvTotalValueBytes, 'no KV value bytes').toBe(0);
    expect(stats.queuePendingCount, 'no carry-forward events').toBe(0);
  },

  get_instance_stats_kv: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'stats-kv');
    // The completion merges the execution's key-value delta into the committed store.
    await runPokedTurn(provider, pokeItem('stats-kv'), {
      historyDelta: [
        kvSetEvent(100, 'stats-kv', 1, { key: 'k1', value: 'aaa' }),
        kvSetEvent(101, 'stats-kv', 1, { key: 'k2', value: 'bbbbb' }),
        completedEvent(102, 'stats-kv', 1, 'done'),
      ],
      metadata: { status: 'Completed', output: 'done' },
    });

    const stats = await statsOf(provider, 'stats-kv', 'instance should exist');
    expect(stats.kvUserKeyCount, 'should have 2 KV keys').toBe(2);
    expect(stats.kvTotalValueBytes, '3 + 5 = 8 bytes').toBe(8);
  },

  get_instance_stats_carry_forward: async ({ newProvider }) => {
    const provider = await newProvider();
    await runPokedTurn(provider, startItem('cf-stats'), {
      historyDelta: [
        startedEvent('cf-stats', 1, {
          carryForwardEvents: [
            ['raised-1', '{"data":"a"}'],
            ['raised-2', '{"data":"b"}'],
            ['raised-3', '{"data":"c"}'],
          ],
        }),
      ],
      metadata: TEST_ORCH_METADATA,
    });

    const stats = await statsOf(provider, 'cf-stats', 'instance should exist');
    expect(stats.queuePendingCount, 'should have 3 carry-forward events').toBe(3);
    expect(stats.historyEventCount, 'should have at least 1 event').toBeGreaterThanOrEqual(1);
    expect(stats.historySizeBytes, 'history should have non-zero size').toBeGreaterThan(0);
    expect(stats.kvUserKeyCount, 'no KV keys set').toBe(0);
  },

  get_instance_stats_kv_delta_only: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-delta-stats');
    // No status in the metadata: the instance keeps running and its values stay in the delta.
    await runPokedTurn(provider, pokeItem('kv-delta-stats'), {
      historyDelta: [
        kvSetEvent(100, 'kv-delta-stats', 1, { key: 'dk1', value: 'xxx' }),
        kvSetEvent(101, 'kv-delta-stats', 1, { key: 'dk2', value: 'yyyyyy' }),
        noopScheduled(102, 'kv-delta-stats'),
      ],
    });

    const stats = await statsOf(provider, 'kv-delta-stats', 'instance should exist');
    expect(stats.kvUserKeyCount, 'should see 2 delta-only KV keys').toBe(2);
    expect(stats.kvTotalValueBytes, '3 + 6 = 9 bytes from delta').toBe(9);
    expect(stats.queuePendingCount, 'no carry-forward events').toBe(0);
  },

  get_instance_stats_kv_merged: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-merged-stats');
    await runPokedTurn(provider, pokeItem('kv-merged-stats', 'poke1'), {
      historyDelta: [
        kvSetEvent(100, 'kv-merged-stats', 1, { key: 'mk1', value: 'aaa' }),
        kvSetEvent(101, 'kv-merged-stats', 1, { key: 'mk2', value: 'bb' }),
        noopScheduled(102, 'kv-merged-stats'),
      ],
    });
    const deltaPhase = await statsOf(
      provider,
      'kv-merged-stats',
      'instance should exist (delta phase)',
    );
    expect(deltaPhase.kvUserKeyCount, 'delta phase: 2 keys').toBe(2);
    expect(deltaPhase.kvTotalValueBytes, 'delta phase: 3 + 2 = 5 bytes').toBe(5);

    await runPokedTurn(provider, pokeItem('kv-merged-stats', 'poke2'), {
      historyDelta: [
        kvSetEvent(200, 'kv-merged-stats', 1, { key: 'mk1', value: 'zzzzz', lastUpdatedAtMs: 1 }),
        completedEvent(201, 'kv-merged-stats', 1, 'done'),
      ],
      metadata: { status: 'Completed', output: 'done' },
    });
    const merged = await statsOf(
      provider,
      'kv-merged-stats',
      'instance should exist (merged phase)',
    );
    expect(merged.kvUserKeyCount, 'merged: still 2 keys (overwrite, not duplicate)').toBe(2);
    expect(merged.kvTotalValueBytes, 'merged: 5 + 2 = 7 bytes').toBe(7);
    expect(merged.queuePendingCount, 'no carry-forward events').toBe(0);
  },
});
