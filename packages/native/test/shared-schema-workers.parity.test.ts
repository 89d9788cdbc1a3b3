import { Client, Runtime, type ActivityContext, type OrchestrationContext } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';
import { useTestSchema } from '@duro/test-postgres/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessRuntimeOptions, waitForCustomStatus } from './duro-scenario-harness.js';
import { loadDuroNative } from './native-addon.js';

const native = await loadDuroNative();
const schema = useTestSchema();
const TIMEOUT_MS = 30_000;

/** How long duro's `Side` takes, as the Rust one: long enough for the sides' fetches to overlap. */
const SIDE_ACTIVITY_MS = 20;

/**
 * A duro runtime serving the Rust worker's orchestration set (`src/rust_runtime/shared_worker.rs`):
 * `Side` returns `duro:<input>`, and records each input it ran.
 */
async function startDuroWorker(
  provider: PostgresProvider,
): Promise<{ runtime: Runtime; activityInputs: string[] }> {
  const activityInputs: string[] = [];
  const runtime = new Runtime(provider, harnessRuntimeOptions);
  runtime.registerActivity('Side', async (_ctx: ActivityContext, input: string) => {
    activityInputs.push(input);
    await new Promise((resolve) => setTimeout(resolve, SIDE_ACTIVITY_MS));
    return `duro:${input}`;
  });
  runtime.registerOrchestration(
    'SharedDrain',
    function* (ctx: OrchestrationContext, input: string) {
      return yield* ctx.scheduleActivity<string>('Side', input);
    },
  );
  runtime.registerOrchestration(
    'SharedHandoff',
    function* (ctx: OrchestrationContext, input: string) {
      const first = yield* ctx.scheduleActivity<string>('Side', input);
      ctx.setCustomStatus('waiting');
      yield* ctx.waitForEvent('Go');
      const second = yield* ctx.scheduleActivity<string>('Side', input);
      return `${first} then ${second}`;
    },
  );
  await runtime.start();
  return { runtime, activityInputs };
}

let provider: PostgresProvider;
let client: Client;
beforeAll(async () => {
  // duro migrates the schema; duroxide-pg then serves it as it is.
  provider = await PostgresProvider.connectWithSchema(schema.databaseUrl, schema.name, {
    poolSize: 8,
  });
  client = new Client(provider);
});
afterAll(async () => {
  await provider.close();
});

describe('one PostgreSQL schema served by a Rust and a duro worker', () => {
  it('an instance started by the Rust worker is finished by a duro worker', async () => {
    const instance = 'handoff-rust-first';
    const rust = await native.startRustWorkerOnPostgres(schema.databaseUrl, schema.name);
    try {
      await client.startOrchestration(instance, 'SharedHandoff', 'a');
      await waitForCustomStatus(client, instance, 'waiting', TIMEOUT_MS);
    } finally {
      await rust.stop();
    }
    const duro = await startDuroWorker(provider);
    try {
      await client.raiseEvent(instance, 'Go', 'now');
      const status = await client.waitForOrchestration(instance, TIMEOUT_MS);
      expect(status.output).toBe('rust:a then duro:a');
    } finally {
      await duro.runtime.shutdown(1_000);
    }
  });

  it('an instance started by a duro worker is finished by the Rust worker', async () => {
    const instance = 'handoff-duro-first';
    const duro = await startDuroWorker(provider);
    try {
      await client.startOrchestration(instance, 'SharedHandoff', 'b');
      await waitForCustomStatus(client, instance, 'waiting', TIMEOUT_MS);
    } finally {
      await duro.runtime.shutdown(1_000);
    }
    const rust = await native.startRustWorkerOnPostgres(schema.databaseUrl, schema.name);
    try {
      await client.raiseEvent(instance, 'Go', 'now');
      const status = await client.waitForOrchestration(instance, TIMEOUT_MS);
      expect(status.output).toBe('duro:b then rust:b');
    } finally {
      await rust.stop();
    }
  });

  it('both drain one queue together and every instance completes once, with its output', async () => {
    const inputs = Array.from({ length: 40 }, (_, index) => `item-${index}`);
    const rust = await native.startRustWorkerOnPostgres(schema.databaseUrl, schema.name);
    const duro = await startDuroWorker(provider);
    try {
      for (const input of inputs)
        await client.startOrchestration(`drain-${input}`, 'SharedDrain', input);
      const outputs = await Promise.all(
        inputs.map(async (input) => {
          const status = await client.waitForOrchestration(`drain-${input}`, TIMEOUT_MS);
          expect(status.status).toBe('Completed');
          return status.output;
        }),
      );
      inputs.forEach((input, index) => {
        expect([`rust:${input}`, `duro:${input}`]).toContain(outputs[index]);
      });
    } finally {
      await Promise.all([rust.stop(), duro.runtime.shutdown(1_000)]);
    }
    const rustRan = rust.activityInputs();
    expect(rustRan.length).toBeGreaterThan(0);
    expect(duro.activityInputs.length).toBeGreaterThan(0);
    expect([...rustRan, ...duro.activityInputs].sort()).toEqual([...inputs].sort());

    const admin = provider.asManagementCapability();
    for (const input of inputs) {
      const events = await admin.readHistory(`drain-${input}`);
      expect(events.filter(({ kind }) => kind.type === 'OrchestrationCompleted')).toHaveLength(1);
    }
  });
});
