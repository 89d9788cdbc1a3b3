import { expect } from 'vitest';
import type { Event } from '../../model/event.js';
import type { KvEntry } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { createInstance } from '../support/fixtures.js';
import { completedEvent, kvSetEvent, startedEvent } from '../support/history-events.js';
import { TEST_ORCH_METADATA, pokeItem, runPokedTurn } from '../support/test-turns.js';

// The turns duroxide's `kv_store.rs` drives by hand (`ack_with_delta`, `continue_as_new`,
// `complete_instance`), and the reads its validations check.

/** A turn of a running execution whose history delta carries key-value events. */
export async function writeKv(
  provider: Provider,
  instance: string,
  executionId: number,
  historyDelta: readonly Event[],
): Promise<void> {
  await runPokedTurn(provider, pokeItem(instance), { executionId, historyDelta });
}

/** One key written by a turn: the `KeyValueSet` event's id and entry. */
export interface KvWrite {
  readonly eventId: number;
  readonly key: string;
  readonly value: string;
  /** @default 0 */
  readonly lastUpdatedAtMs?: number;
}

/** A turn of a running execution that sets these keys, in order. */
export async function setKv(
  provider: Provider,
  instance: string,
  executionId: number,
  ...writes: readonly KvWrite[]
): Promise<void> {
  await writeKv(
    provider,
    instance,
    executionId,
    writes.map((write) => kvSetEvent(write.eventId, instance, executionId, write)),
  );
}

/**
 * A `TestOrch` instance whose first execution set these keys and completed, so that they are
 * committed (duroxide's `create_instance`, `ack_with_delta`, `complete_instance` in a row).
 */
export async function createInstanceWithCommittedKv(
  provider: Provider,
  instance: string,
  ...writes: readonly KvWrite[]
): Promise<void> {
  await createInstance(provider, instance);
  await setKv(provider, instance, 1, ...writes);
  await completeExecution(provider, instance, 1);
}

/**
 * Ends execution `newExecutionId - 1` as `ContinuedAsNew` in one turn (which merges its
 * key-value delta into the committed store), then starts `newExecutionId` from a
 * `ContinueAsNew` message in the next.
 */
export async function continueAsNew(
  provider: Provider,
  instance: string,
  newExecutionId: number,
): Promise<void> {
  await runPokedTurn(provider, pokeItem(instance), {
    executionId: newExecutionId - 1,
    metadata: { ...TEST_ORCH_METADATA, status: 'ContinuedAsNew' },
  });
  await runPokedTurn(
    provider,
    {
      type: 'ContinueAsNew',
      instance,
      orchestration: 'TestOrch',
      input: '{}',
      version: '1.0.0',
      carryForwardEvents: [],
    },
    {
      executionId: newExecutionId,
      historyDelta: [startedEvent(instance, newExecutionId)],
      metadata: TEST_ORCH_METADATA,
    },
  );
}

/** Completes execution `executionId` with output `done` (event id 9999), as the runtime would. */
export async function completeExecution(
  provider: Provider,
  instance: string,
  executionId: number,
): Promise<void> {
  await runPokedTurn(provider, pokeItem(instance), {
    executionId,
    historyDelta: [completedEvent(9999, instance, executionId, 'done')],
    metadata: { ...TEST_ORCH_METADATA, status: 'Completed', output: 'done' },
  });
}

/**
 * The key-value snapshot the next turn of `instance` is handed, as key → value; the turn is
 * then acknowledged on `executionId` with nothing to commit.
 */
export async function snapshotOfNextTurn(
  provider: Provider,
  instance: string,
  executionId: number,
): Promise<Record<string, string>> {
  const { item } = await runPokedTurn(provider, pokeItem(instance), { executionId });
  return valuesOf(item.kvSnapshot);
}

function valuesOf(snapshot: ReadonlyMap<string, KvEntry>): Record<string, string> {
  return Object.fromEntries([...snapshot].map(([key, entry]) => [key, entry.value]));
}

/** Fails the validation unless a client reads `expected` for `key` (`null`: no value). */
export async function expectKvValue(
  provider: Provider,
  instance: string,
  key: string,
  expected: string | null,
  message?: string,
): Promise<void> {
  expect(await provider.getKvValue(instance, key), message).toBe(expected);
}
