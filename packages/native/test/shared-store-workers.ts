import {
  Client,
  Runtime,
  type ActivityContext,
  type OrchestrationContext,
  type Provider,
} from '@duro/core';
import { describe, expect, it } from 'vitest';
import { harnessRuntimeOptions, waitForCustomStatus } from './duro-scenario-harness.js';

const TIMEOUT_MS = 30_000;

/** How long duro's `Side` takes, as the Rust one: long enough for the sides' fetches to overlap. */
const SIDE_ACTIVITY_MS = 20;

/** A Rust duroxide worker serving the store (`src/rust_runtime/shared_worker.rs`). */
export interface RustSideWorker {
  /** Shuts it down, waiting for work in flight. */
  stop(): Promise<void>;
  /** The inputs of every `Side` activity it ran (once stopped). */
  activityInputs(): Promise<string[]>;
}

/** One store that a duro provider and a Rust worker can both serve. */
export interface SharedStore {
  /** A duro provider on the store, open for the whole file. */
  readonly provider: Provider;
  /** Starts a Rust worker on the same store. */
  readonly startRustWorker: () => Promise<RustSideWorker>;
}

/**
 * A duro runtime serving the Rust worker's orchestration set (`src/rust_runtime/shared_worker.rs`):
 * `Side` returns `duro:<input>`, and records each input it ran.
 */
export async function startDuroWorker(
  provider: Provider,
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

/**
 * Registers the checks that a Rust worker and a duro worker serve one store together: an
 * instance each side starts is finished by the other, and both drain one queue with every
 * instance completing once. `store()` is read when the tests run (after `beforeAll`).
 */
export function describeSharedStoreWorkers(title: string, store: () => SharedStore): void {
  describe(title, () => {
    it('an instance started by the Rust worker is finished by a duro worker', async () => {
      const { provider, startRustWorker } = store();
      const client = new Client(provider);
      const instance = 'handoff-rust-first';
      const rust = await startRustWorker();
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
      const { provider, startRustWorker } = store();
      const client = new Client(provider);
      const instance = 'handoff-duro-first';
      const duro = await startDuroWorker(provider);
      try {
        await client.startOrchestration(instance, 'SharedHandoff', 'b');
        await waitForCustomStatus(client, instance, 'waiting', TIMEOUT_MS);
      } finally {
        await duro.runtime.shutdown(1_000);
      }
      const rust = await startRustWorker();
      try {
        await client.raiseEvent(instance, 'Go', 'now');
        const status = await client.waitForOrchestration(instance, TIMEOUT_MS);
        expect(status.output).toBe('duro:b then rust:b');
      } finally {
        await rust.stop();
      }
    });

    it('both drain one queue together and every instance completes once, with its output', async () => {
      const { provider, startRustWorker } = store();
      const client = new Client(provider);
      const inputs = Array.from({ length: 40 }, (_, index) => `item-${index}`);
      // The Rust worker serves the first instance alone; the duro worker then joins for the
      // rest, so both take part even where one side claims faster (on SQLite, duroxide's
      // provider backs off when a duro commit beats its read-then-write transaction).
      const [first = '', ...rest] = inputs;
      const rust = await startRustWorker();
      let duro: Awaited<ReturnType<typeof startDuroWorker>> | null = null;
      try {
        await client.startOrchestration(`drain-${first}`, 'SharedDrain', first);
        await client.waitForOrchestration(`drain-${first}`, TIMEOUT_MS);
        duro = await startDuroWorker(provider);
        for (const input of rest)
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
        await Promise.all([rust.stop(), duro?.runtime.shutdown(1_000)]);
      }
      if (duro === null) throw new Error('the duro worker never started');
      const rustRan = await rust.activityInputs();
      expect(rustRan.length).toBeGreaterThan(0);
      expect(duro.activityInputs.length).toBeGreaterThan(0);
      expect([...rustRan, ...duro.activityInputs].sort()).toEqual([...inputs].sort());

      const admin = provider.asManagementCapability?.();
      if (!admin) throw new Error(`${provider.name} has no management capability`);
      for (const input of inputs) {
        const events = await admin.readHistory(`drain-${input}`);
        expect(events.filter(({ kind }) => kind.type === 'OrchestrationCompleted')).toHaveLength(1);
      }
    });
  });
}
