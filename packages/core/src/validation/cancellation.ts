import { assert, expect } from 'vitest';
import type { EventKind } from '../model/event.js';
import type { ExecutionMetadata } from '../provider/execution-metadata.js';
import { TagFilter } from '../provider/fetch-filters.js';
import type {
  FetchedWorkItem,
  ScheduledActivityIdentifier,
} from '../provider/orchestration-item.js';
import type { Provider } from '../provider/provider.js';
import type { WorkItemOf } from '../model/work-item.js';
import { assertFetchedActivity } from './support/fetched-activity.js';
import {
  activityCompleted,
  activityExecute,
  eventWithId,
  expectProviderError,
  startItem,
  testOrchStarted,
} from './support/fixtures.js';
import { defineValidationGroup } from './validation-group.js';

const LOCK_MS = 30_000;

/** What {@link startWithActivities} writes in the instance's first turn. */
interface FirstTurn {
  /** A terminal event, written as event 2 of the same turn. */
  readonly terminal?: EventKind;
  readonly activities?: readonly WorkItemOf<'ActivityExecute'>[];
  readonly metadata?: ExecutionMetadata;
  readonly cancelled?: readonly ScheduledActivityIdentifier[];
  /** The `OrchestrationStarted` kind; `TestOrch` version "1.0" by default. */
  readonly started?: EventKind;
}

const RUNNING: ExecutionMetadata = { orchestrationName: 'TestOrch', status: 'Running' };

/**
 * Starts `instance` and acknowledges its first turn with `OrchestrationStarted` (plus the
 * `terminal` event, when given), scheduling `activities` and cancelling `cancelled`.
 */
async function startWithActivities(
  provider: Provider,
  instance: string,
  turn: FirstTurn,
): Promise<void> {
  await provider.enqueueForOrchestrator(startItem(instance), null);
  const fetched = await provider.fetchOrchestrationItem(LOCK_MS, 0, null);
  assert(fetched !== null, `the start of ${instance} should be fetchable`);
  const started = turn.started ?? { ...testOrchStarted(), version: '1.0' };
  const events = [eventWithId(1, instance, 1, null, started)];
  if (turn.terminal !== undefined) events.push(eventWithId(2, instance, 1, null, turn.terminal));
  await provider.ackOrchestrationItem(
    fetched.lockToken,
    1,
    events,
    turn.activities ?? [],
    [],
    turn.metadata ?? RUNNING,
    turn.cancelled ?? [],
  );
}

/** Activity `id` of execution 1 with input `{}`. */
function testActivity(instance: string, id: number, name = 'TestActivity') {
  return activityExecute(instance, 1, id, name, '{}');
}

/** Gives the instance another turn (an `ExternalRaised` "Trigger") and returns its lock token. */
async function nextTurn(provider: Provider, instance: string): Promise<string> {
  await provider.enqueueForOrchestrator(
    { type: 'ExternalRaised', instance, name: 'Trigger', data: '{}' },
    null,
  );
  const fetched = await provider.fetchOrchestrationItem(LOCK_MS, 0, null);
  assert(fetched !== null, `the trigger of ${instance} should be fetchable`);
  return fetched.lockToken;
}

function fetchActivity(
  provider: Provider,
  lockTimeoutMs = LOCK_MS,
): Promise<FetchedWorkItem | null> {
  return provider.fetchWorkItem(lockTimeoutMs, 0, null, TagFilter.defaultOnly());
}

/** Fails the validation if the worker queue still hands out an activity. */
async function expectWorkerQueueEmpty(provider: Provider, message: string): Promise<void> {
  expect(await fetchActivity(provider, 100), message).toBeNull();
}

/** The activities with these ids of execution 1 of `instance`, as cancellations. */
function cancellations(instance: string, ids: readonly number[]): ScheduledActivityIdentifier[] {
  return ids.map((activityId) => ({ instance, executionId: 1, activityId }));
}

/**
 * Activities stay fetchable whatever state their execution is in: the worker learns about a
 * cancellation from a failed renewal or ack, not from the fetch.
 */
async function expectActivityFetchableWhen(
  provider: Provider,
  instance: string,
  terminal: { readonly event: EventKind; readonly metadata: ExecutionMetadata } | null,
): Promise<void> {
  await startWithActivities(provider, instance, {
    activities: [testActivity(instance, 1)],
    ...(terminal === null ? {} : { terminal: terminal.event, metadata: terminal.metadata }),
  });
  expect(await fetchActivity(provider), 'Expected to fetch work item').not.toBeNull();
}

/**
 * duroxide `provider_validation::cancellation`: activity cancellation by lock stealing. The
 * runtime cancels an activity by deleting its worker-queue row in `ackOrchestrationItem`
 * (after inserting that turn's activities); the worker sees it when renewing or acking fails.
 */
export const cancellation = defineValidationGroup('cancellation', {
  fetch_returns_running_state_for_active_orchestration: async ({ newProvider }) => {
    await expectActivityFetchableWhen(await newProvider(), 'inst-running', null);
  },

  fetch_returns_terminal_state_when_orchestration_completed: async ({ newProvider }) => {
    await expectActivityFetchableWhen(await newProvider(), 'inst-completed', {
      event: { type: 'OrchestrationCompleted', output: 'done' },
      metadata: { orchestrationName: 'TestOrch', status: 'Completed', output: 'done' },
    });
  },

  fetch_returns_terminal_state_when_orchestration_failed: async ({ newProvider }) => {
    await expectActivityFetchableWhen(await newProvider(), 'inst-failed', {
      event: {
        type: 'OrchestrationFailed',
        details: {
          type: 'Application',
          kind: { type: 'OrchestrationFailed' },
          message: 'boom',
          retryable: false,
        },
      },
      metadata: { orchestrationName: 'TestOrch', status: 'Failed' },
    });
  },

  fetch_returns_terminal_state_when_orchestration_continued_as_new: async ({ newProvider }) => {
    await expectActivityFetchableWhen(await newProvider(), 'inst-can', {
      event: { type: 'OrchestrationContinuedAsNew', input: 'new-input' },
      metadata: { orchestrationName: 'TestOrch', status: 'ContinuedAsNew', output: 'new-input' },
    });
  },

  // A leftover activity of an instance that does not exist is still handed out.
  fetch_returns_missing_state_when_instance_deleted: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(testActivity('inst-missing', 1));

    expect(await fetchActivity(provider), 'Expected to fetch work item').not.toBeNull();
  },

  renew_returns_running_when_orchestration_active: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-renew-run';
    await startWithActivities(provider, instance, { activities: [testActivity(instance, 1)] });
    const fetched = await fetchActivity(provider);
    assert(fetched !== null, 'the activity should be fetchable');

    await provider.renewWorkItemLock(fetched.lockToken, LOCK_MS);
  },

  // The execution completing does not by itself invalidate the activity's lock.
  renew_returns_terminal_when_orchestration_completed: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-renew-term';
    await startWithActivities(provider, instance, { activities: [testActivity(instance, 1)] });
    const fetched = await fetchActivity(provider);
    assert(fetched !== null, 'the activity should be fetchable');

    await provider.ackOrchestrationItem(
      await nextTurn(provider, instance),
      1,
      [eventWithId(2, instance, 1, null, { type: 'OrchestrationCompleted', output: 'done' })],
      [],
      [],
      { status: 'Completed', output: 'done' },
      [],
    );

    await provider.renewWorkItemLock(fetched.lockToken, LOCK_MS);
  },

  renew_returns_missing_when_instance_deleted: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(testActivity('inst-renew-missing', 1));
    const fetched = await fetchActivity(provider);
    assert(fetched !== null, 'the activity should be fetchable');

    await provider.renewWorkItemLock(fetched.lockToken, LOCK_MS);
  },

  ack_work_item_none_deletes_without_enqueue: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(testActivity('inst-ack-none', 1));
    const fetched = await fetchActivity(provider);
    assert(fetched !== null, 'the activity should be fetchable');

    await provider.ackWorkItem(fetched.lockToken, null);

    await expectWorkerQueueEmpty(provider, 'Worker queue should be empty');
    // A completion, had one been enqueued, would be visible here even without an instance.
    expect(
      await provider.fetchOrchestrationItem(100, 0, null),
      'Orchestrator queue should be empty',
    ).toBeNull();
  },

  cancelled_activities_deleted_from_worker_queue: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-cancel-delete';
    await startWithActivities(provider, instance, {
      activities: [1, 2, 3].map((id) => testActivity(instance, id, `Activity${id}`)),
    });
    const peeked = await fetchActivity(provider);
    assert(peeked !== null, 'Should have activity in queue');
    await provider.abandonWorkItem(peeked.lockToken, null, false);

    await provider.ackOrchestrationItem(
      await nextTurn(provider, instance),
      1,
      [],
      [],
      [],
      {},
      cancellations(instance, [1, 2]),
    );

    assertFetchedActivity(
      await fetchActivity(provider),
      'Only activity 3 should remain; activities 1 and 2 should be cancelled',
      { id: 3 },
    );
    await expectWorkerQueueEmpty(provider, 'Should have no more activities');
  },

  ack_work_item_fails_when_entry_deleted: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(testActivity('inst-ack-stolen', 1));
    const fetched = await fetchActivity(provider);
    assert(fetched !== null, 'the activity should be fetchable');
    // Deletes the row as a cancellation would (the runtime does it through cancelledActivities).
    await provider.ackWorkItem(fetched.lockToken, null);

    const error = await expectProviderError(
      provider.ackWorkItem(fetched.lockToken, activityCompleted('inst-ack-stolen', 1, 1, 'done')),
      'ack_work_item should fail when entry already deleted',
    );
    expect(
      error.retryable,
      `Error should be permanent (not retryable) for deleted entry: ${error.message}`,
    ).toBe(false);
  },

  // A failed renewal is how a running activity learns that it was cancelled.
  renew_fails_when_entry_deleted: async ({ newProvider }) => {
    const provider = await newProvider();
    await provider.enqueueForWorker(testActivity('inst-renew-stolen', 1));
    const fetched = await fetchActivity(provider);
    assert(fetched !== null, 'the activity should be fetchable');
    await provider.ackWorkItem(fetched.lockToken, null);

    await expect(
      provider.renewWorkItemLock(fetched.lockToken, LOCK_MS),
      'renew_work_item_lock should fail when entry deleted',
    ).rejects.toThrow();
  },

  cancelling_nonexistent_activities_is_idempotent: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-cancel-idempotent';

    await expect(
      startWithActivities(provider, instance, {
        metadata: { orchestrationName: 'TestOrch' },
        cancelled: cancellations(instance, [999, 1]),
      }),
      'Cancelling non-existent activities should not error',
    ).resolves.toBeUndefined();
  },

  batch_cancellation_deletes_multiple_activities: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-batch-cancel';
    const ids = [1, 2, 3, 4, 5];
    await startWithActivities(provider, instance, {
      activities: ids.map((id) => testActivity(instance, id, `Activity${id}`)),
    });

    await provider.ackOrchestrationItem(
      await nextTurn(provider, instance),
      1,
      [],
      [],
      [],
      {},
      cancellations(instance, ids),
    );

    await expectWorkerQueueEmpty(
      provider,
      'All activities should be cancelled; worker queue should be empty',
    );
  },

  // An activity scheduled and dropped in the same turn (a lost select, say) is in both lists.
  // Providers must insert the turn's activities before deleting the cancelled ones, or the
  // dropped activity would stay queued.
  same_activity_in_worker_items_and_cancelled_is_noop: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-schedule-then-cancel';
    await startWithActivities(provider, instance, {
      activities: [
        testActivity(instance, 2, 'DroppedActivity'),
        testActivity(instance, 3, 'NormalActivity'),
      ],
      cancelled: cancellations(instance, [2]),
    });

    const remaining = await fetchActivity(provider);
    assertFetchedActivity(
      remaining,
      'Only the normal activity (id=3) should remain; the scheduled-then-cancelled activity (id=2) should be gone',
      { id: 3, name: 'NormalActivity' },
    );
    await provider.ackWorkItem(remaining.lockToken, null);
    await expectWorkerQueueEmpty(
      provider,
      'Should have no more activities; the schedule-then-cancel activity should NOT be in queue',
    );
  },

  // Force-deleting an instance may keep or drop its queued activities; either way the worker
  // queue stays usable and a completion for the deleted instance is accepted (and orphaned).
  orphan_activity_after_instance_force_deletion: async ({ newProvider }) => {
    const provider = await newProvider();
    const instance = 'inst-orphan-activity';
    await startWithActivities(provider, instance, {
      started: testOrchStarted(),
      activities: [activityExecute(instance, 1, 1, 'TestActivity', 'test-input')],
      metadata: { ...RUNNING, orchestrationVersion: '1.0.0' },
    });

    const admin = provider.asManagementCapability?.() ?? null;
    assert(admin !== null, 'Provider should implement ProviderAdmin');
    const deleted = await admin.deleteInstance(instance, true);
    expect(deleted.instancesDeleted, 'Force delete should remove the instance').toBeGreaterThan(0);
    await expect(
      admin.getInstanceInfo(instance),
      'Instance should no longer exist',
    ).rejects.toThrow();

    const survivor = await fetchActivity(provider, 5_000);
    if (survivor !== null) {
      await provider.ackWorkItem(
        survivor.lockToken,
        activityCompleted(instance, 1, 1, 'orphan-result'),
      );
    }
  },
});
