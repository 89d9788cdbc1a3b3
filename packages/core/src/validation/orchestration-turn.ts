import type { Event } from '../model/event.js';
import type { WorkItem, WorkItemOf } from '../model/work-item.js';
import type { ExecutionMetadata } from '../provider/execution-metadata.js';
import type { FetchedOrchestrationItem } from '../provider/orchestration-item.js';
import type { Provider } from '../provider/provider.js';
import { INITIAL_EXECUTION_ID, expectPresent } from './fixtures.js';

/** Lock timeout of the turns the validations drive by hand, ms (duroxide's tests use 30 s). */
export const TURN_LOCK_TIMEOUT_MS = 30_000;

/** Metadata naming the validations' orchestration, `TestOrch` 1.0.0, as a first turn stores it. */
export const TEST_ORCH_METADATA: ExecutionMetadata = Object.freeze({
  orchestrationName: 'TestOrch',
  orchestrationVersion: '1.0.0',
});

/** What the runtime would commit at the end of one turn; every field defaults to "nothing". */
export interface TurnCommit {
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
 * Fetches the next orchestration item without waiting, failing the validation with `message`
 * when there is none.
 */
export async function fetchTurn(
  provider: Provider,
  message = 'expected orchestration item',
): Promise<FetchedOrchestrationItem> {
  return expectPresent(
    await provider.fetchOrchestrationItem(TURN_LOCK_TIMEOUT_MS, 0, null),
    message,
  );
}

/** Acknowledges a fetched turn with `commit`, cancelling no activity. */
export async function ackTurn(
  provider: Provider,
  lockToken: string,
  commit: TurnCommit = {},
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
export async function runTurn(
  provider: Provider,
  trigger: WorkItem,
  commit: TurnCommit = {},
): Promise<FetchedOrchestrationItem> {
  await provider.enqueueForOrchestrator(trigger, null);
  const fetched = await fetchTurn(provider);
  await ackTurn(provider, fetched.lockToken, commit);
  return fetched;
}
