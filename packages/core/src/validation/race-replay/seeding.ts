import type { Event } from '../../model/event.js';
import type { WorkItem } from '../../model/work-item.js';
import type { ExecutionMetadata } from '../../provider/execution-metadata.js';
import type { Provider } from '../../provider/provider.js';
import { Runtime } from '../../runtime/runtime.js';
import type { RuntimeOptions } from '../../runtime/runtime-options.js';
import {
  eventWithId,
  expectPresent,
  fetchOrchestration,
  sleep,
  startItem,
} from '../support/fixtures.js';

// Seeding and runtime set-up shared by the race_replay validations.

const quiet = (): void => undefined;
/** @internal */
export const OPTIONS: RuntimeOptions = {
  dispatcherPollIntervalMs: 10,
  dispatcherLongPollTimeoutMs: 100,
  logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
};

/** @internal */
export type Gen = Generator<unknown, unknown, unknown>;

/** Seeds an instance: fetches its start and acks `history`, `orchestratorItems` and `metadata`. */
/** @internal */
export async function seed(
  provider: Provider,
  instance: string,
  history: Event[],
  orchestratorItems: WorkItem[],
  metadata: ExecutionMetadata,
): Promise<void> {
  await provider.enqueueForOrchestrator(startItem(instance), null);
  const fetched = expectPresent(await fetchOrchestration(provider), 'visible seed');
  await provider.ackOrchestrationItem(
    fetched.lockToken,
    1,
    history,
    [],
    orchestratorItems,
    metadata,
    [],
  );
}

/** @internal */
export function started(instance: string, name: string, input: string): Event {
  return eventWithId(1, instance, 1, null, {
    type: 'OrchestrationStarted',
    name,
    version: '1.0.0',
    input,
    parentInstance: null,
    parentId: null,
  });
}

/** The `ContinueAsNew` start of execution 2 (input `"next"`, version 1.0.0). @internal */
export function successorStart(
  instance: string,
  name: string,
  carried: Array<[string, string]>,
): WorkItem {
  return {
    type: 'ContinueAsNew',
    instance,
    orchestration: name,
    input: '"next"',
    version: '1.0.0',
    carryForwardEvents: carried,
  };
}

/** A predecessor that continued-as-new, with its successor's start queued in the same ack. */
/** @internal */
export async function seedContinuedAsNew(
  provider: Provider,
  instance: string,
  name: string,
  carried: Array<[string, string]>,
): Promise<void> {
  await seed(
    provider,
    instance,
    [
      started(instance, name, '"old"'),
      eventWithId(2, instance, 1, null, { type: 'OrchestrationContinuedAsNew', input: '"next"' }),
    ],
    [successorStart(instance, name, carried)],
    { status: 'ContinuedAsNew' },
  );
}

/** @internal */
export async function runtimeWith(
  provider: Provider,
  options: RuntimeOptions,
  register: (runtime: Runtime) => void,
): Promise<Runtime> {
  const runtime = new Runtime(provider, { ...OPTIONS, ...options });
  register(runtime);
  await runtime.start();
  return runtime;
}

/** Runtime-level queue cancellation and event-version preservation checks. */

/** Polls `check` every 20 ms until it holds. @throws {Error} naming `what` after 10 s. @internal */
export async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(20);
  }
}
