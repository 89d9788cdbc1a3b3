import type { Event } from '../../model/event.js';
import type { WorkItem, WorkItemOf } from '../../model/work-item.js';
import type { ExecutionMetadata } from '../../provider/execution-metadata.js';
import type { FetchedOrchestrationItem } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { INITIAL_EXECUTION_ID, expectPresent, fetchOrchestration } from './fixtures.js';

/** Metadata naming the validations' orchestration, `TestOrch` 1.0.0, as a first turn stores it. */
export const TEST_ORCH_METADATA: ExecutionMetadata = Object.freeze({
  orchestrationName: 'TestOrch',
  orchestrationVersion: '1.0.0',
});

/**
 * What a validation writes when it acknowledges a turn, as the runtime would at the end of one;
 * every field defaults to "nothing".
 */
export interface TurnWrites {
  /** @default 1 ({@link INITIAL_EXECUTION_ID}) */
  readonly executionId?: number;
  /** @default [] */
  readonly historyDelta?: readonly Event[];
  /** @default [] */
  readonly workerItems?: readonly WorkItem[];
  /** @default {} (change nothing) */
  readonly metadata?: ExecutionMetadata;
}

/**
 * An `ExternalRaised` message with data `{}`, the validations' way to give an instance a turn
 * (duroxide's `poke_item`).
 */
export function pokeItem(instance: string, name = 'poke'): WorkItemOf<'ExternalRaised'> {
  return { type: 'ExternalRaised', instance, name, data: '{}' };
}

/**
 * Fetches the next orchestration item with a 30 s lock, without waiting, failing the validation
 * with `message` when there is none.
 */
export async function fetchNextTurn(
  provider: Provider,
  message = 'expected orchestration item',
): Promise<FetchedOrchestrationItem> {
  return expectPresent(await fetchOrchestration(provider), message);
}

/** Acknowledges a fetched turn with `commit`, cancelling no activity. */
export async function ackWithWrites(
  provider: Provider,
  lockToken: string,
  commit: TurnWrites = {},
): Promise<void> {
  await provider.ackOrchestrationItem(
    lockToken,
    commit.executionId ?? INITIAL_EXECUTION_ID,
    commit.historyDelta ?? [],
    commit.workerItems ?? [],
    [],
    commit.metadata ?? {},
    [],
  );
}

/**
 * One whole turn: enqueues `trigger`, fetches the next item and acknowledges it with `commit`.
 * Returns what was fetched.
 */
export async function runPokedTurn(
  provider: Provider,
  trigger: WorkItem,
  commit: TurnWrites = {},
): Promise<FetchedOrchestrationItem> {
  await provider.enqueueForOrchestrator(trigger, null);
  const fetched = await fetchNextTurn(provider);
  await ackWithWrites(provider, fetched.lockToken, commit);
  return fetched;
}
