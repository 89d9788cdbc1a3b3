import {
  Client,
  Runtime,
  encodeErrorDetails,
  encodeEvent,
  type Provider,
  type RuntimeOptions,
} from '@duro/core';
import type { ScenarioInstance, ScenarioOutcome } from '../ts/index.js';
import { registerDuroScenarios } from './duro-scenarios/index.js';
import type { ScenarioSpec } from './scenario-catalogue.js';

/** A client action of the catalogue, as `src/rust_runtime/catalogue.rs` reads it. */
type ClientStep =
  | { readonly type: 'waitForCustomStatus'; readonly status: string }
  | { readonly type: 'raiseEvent'; readonly name: string; readonly data: unknown }
  | { readonly type: 'enqueueEvent'; readonly queue: string; readonly data: unknown }
  | { readonly type: 'cancel'; readonly reason: string };

const STATUS_POLL_MS = 20;

/** The settings of the Rust harness's runtime (`runtime_options` in `harness.rs`). */
export const harnessRuntimeOptions: RuntimeOptions = {
  dispatcherPollIntervalMs: 10,
  dispatcherLongPollTimeoutMs: 500,
  orchestrationConcurrency: 4,
  workerConcurrency: 4,
  workerTagFilter: { defaultAnd: ['gpu'] },
};

/** Waits until `instance` shows the custom status `status`. */
export async function waitForCustomStatus(
  client: Client,
  instance: string,
  status: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await client.getStatus(instance)).customStatus !== status) {
    if (Date.now() > deadline) throw new Error(`custom status never became "${status}"`);
    await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
  }
}

async function takeStep(client: Client, instance: string, step: ClientStep, timeoutMs: number) {
  switch (step.type) {
    case 'waitForCustomStatus':
      return waitForCustomStatus(client, instance, step.status, timeoutMs);
    case 'raiseEvent':
      return client.raiseEvent(instance, step.name, step.data);
    case 'enqueueEvent':
      return client.enqueueEvent(instance, step.queue, step.data);
    case 'cancel':
      return client.cancelInstance(instance, step.reason);
  }
}

/** Every execution's history of `instance`, and the ids of the instances they started. */
async function readHistories(
  provider: Provider,
  instance: string,
): Promise<{ histories: ScenarioInstance; started: string[] }> {
  const admin = provider.asManagementCapability?.();
  if (!admin) throw new Error(`${provider.name} has no management interface`);
  const executions = [];
  const started: string[] = [];
  for (const executionId of await admin.listExecutions(instance)) {
    const events = await admin.readHistoryWithExecutionId(instance, executionId);
    for (const { kind } of events) {
      if (kind.type === 'SubOrchestrationScheduled' || kind.type === 'OrchestrationChained') {
        // duroxide's build_child_instance_id: generated ids are relative to the parent.
        started.push(
          kind.instance.startsWith('sub::') ? `${instance}::${kind.instance}` : kind.instance,
        );
      }
    }
    executions.push({ executionId, events: events.map(encodeEvent) });
  }
  return { histories: { instanceId: instance, executions }, started };
}

async function runScenario(
  client: Client,
  provider: Provider,
  spec: ScenarioSpec,
  instance: string,
  timeoutMs: number,
): Promise<ScenarioOutcome> {
  if (spec.version === null)
    await client.startOrchestration(instance, spec.orchestration, spec.input);
  else
    await client.startOrchestrationVersioned(
      instance,
      spec.orchestration,
      spec.input,
      spec.version,
    );
  for (const step of spec.steps as ClientStep[]) await takeStep(client, instance, step, timeoutMs);
  const instances: ScenarioInstance[] = [];
  const pending = [instance];
  const seen = new Set<string>();
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    await client.waitForOrchestration(id, timeoutMs);
    const { histories, started } = await readHistories(provider, id);
    pending.push(...started);
    instances.push(histories);
  }
  instances.sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
  const status = await client.getStatus(instance);
  return {
    name: spec.name,
    instanceId: instance,
    status: status.status,
    output: status.output ?? null,
    error: status.error ?? null,
    errorDetails: status.errorDetails ? encodeErrorDetails(status.errorDetails) : null,
    customStatus: status.customStatus ?? null,
    instances,
  };
}

/**
 * Runs catalogue scenarios on the duro runtime over `provider`, as the Rust harness
 * (`src/rust_runtime/harness.rs`) does on duroxide's: same runtime settings, same client steps,
 * same instance naming, histories as duroxide serde JSON written by duro's codec.
 */
export async function runDuroScenarios(
  provider: Provider,
  specs: readonly ScenarioSpec[],
  prefix: string,
  timeoutMs = 30_000,
): Promise<ScenarioOutcome[]> {
  const runtime = new Runtime(provider, harnessRuntimeOptions);
  registerDuroScenarios(runtime);
  await runtime.start();
  try {
    const client = new Client(provider);
    return await Promise.all(
      specs.map((spec) => runScenario(client, provider, spec, `${prefix}${spec.name}`, timeoutMs)),
    );
  } finally {
    await runtime.shutdown(1_000);
  }
}
