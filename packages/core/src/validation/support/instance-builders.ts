import type { WorkItem } from '../../model/work-item.js';
import type { ExecutionStatus } from '../../provider/execution-metadata.js';
import type { Provider } from '../../provider/provider.js';
import { INITIAL_EXECUTION_ID, createInstanceWithParent, startItem } from './fixtures.js';
import { startedEvent } from './history-events.js';
import { TEST_ORCH_METADATA, ackWithWrites, fetchNextTurn, runPokedTurn } from './test-turns.js';

/**
 * A `TestOrch` instance whose first execution completed with output `done`, started by
 * `parentInstance` (as its sub-orchestration with parent event id 1) when one is given
 * (duroxide's `create_completed_instance_with_parent`).
 */
export async function createCompletedInstance(
  provider: Provider,
  instance: string,
  parentInstance: string | null = null,
): Promise<void> {
  const parent = parentInstance === null ? null : { parentInstance, parentId: 1 };
  await runPokedTurn(
    provider,
    { ...startItem(instance), ...parent },
    {
      historyDelta: [startedEvent(instance, INITIAL_EXECUTION_ID, { ...parent })],
      metadata: {
        ...TEST_ORCH_METADATA,
        status: 'Completed',
        output: 'done',
        ...(parentInstance === null ? {} : { parentInstanceId: parentInstance }),
      },
    },
  );
}

/** A `TestOrch` instance whose first execution failed with `output` as its error text. */
export async function createFailedInstance(
  provider: Provider,
  instance: string,
  output: string,
): Promise<void> {
  await runPokedTurn(provider, startItem(instance), {
    historyDelta: [startedEvent(instance, INITIAL_EXECUTION_ID)],
    metadata: { ...TEST_ORCH_METADATA, status: 'Failed', output },
  });
}

/**
 * A completed `ChildOrch` 1.0.0 sub-orchestration of `parentInstance`, started through
 * {@link createInstanceWithParent} (duroxide's `create_child_instance` in `deletion.rs`).
 */
export async function createChildInstance(
  provider: Provider,
  instance: string,
  parentInstance: string,
): Promise<void> {
  await createInstanceWithParent(provider, instance, parentInstance);
  const { lockToken } = await fetchNextTurn(provider);
  await ackWithWrites(provider, lockToken, {
    historyDelta: [
      startedEvent(instance, INITIAL_EXECUTION_ID, { name: 'ChildOrch', parentInstance }),
    ],
    metadata: {
      status: 'Completed',
      output: 'done',
      orchestrationName: 'ChildOrch',
      orchestrationVersion: '1.0.0',
      parentInstanceId: parentInstance,
    },
  });
}

/** How {@link createExecutionChain} names and ends its chain. */
export interface ExecutionChainOptions {
  /** Orchestration name of every execution after the first (the first is a `TestOrch` start). */
  readonly orchestration: string;
  /** Status stored for the last execution; the earlier ones are `ContinuedAsNew`. */
  readonly lastStatus: ExecutionStatus;
}

/**
 * An instance with executions 1..`count`, each started by its own turn as a continue-as-new
 * chain does (duroxide's `create_multi_execution_instance` in `prune.rs`, and
 * `create_running_multi_execution_instance` with `lastStatus: 'Running'`).
 */
export async function createExecutionChain(
  provider: Provider,
  instance: string,
  count: number,
  options: ExecutionChainOptions,
): Promise<void> {
  const { orchestration, lastStatus } = options;
  for (let executionId = 1; executionId <= count; executionId++) {
    const trigger: WorkItem =
      executionId === 1
        ? startItem(instance)
        : {
            type: 'ContinueAsNew',
            instance,
            orchestration,
            input: '{}',
            version: '1.0.0',
            carryForwardEvents: [],
          };
    await runPokedTurn(provider, trigger, {
      executionId,
      historyDelta: [startedEvent(instance, executionId, { name: orchestration })],
      metadata: {
        status: executionId === count ? lastStatus : 'ContinuedAsNew',
        orchestrationName: orchestration,
        orchestrationVersion: '1.0.0',
      },
    });
  }
}
