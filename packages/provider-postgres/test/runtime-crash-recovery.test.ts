import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Runtime, type OrchestrationContext } from '@duro/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();
const workerScript = fileURLToPath(new URL('./support/runtime-worker.mjs', import.meta.url));
const signalDir = mkdtempSync(join(tmpdir(), 'duro-crash-'));
const workers = new Set<ChildProcess>();

type WorkerRole = 'finish' | 'hang-in-activity' | 'hang-in-turn' | 'die-after-ack';

/** Forks a worker process on `schema`; resolves once its runtime polls. */
async function startWorker(schema: string, role: WorkerRole): Promise<ChildProcess> {
  const worker = fork(workerScript, [database.url, schema, role, signalDir], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  workers.add(worker);
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('exit', (code, signal) =>
      reject(new Error(`worker ${role} exited before starting (${code ?? signal})`)),
    );
  });
  return worker;
}

async function exited(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  await new Promise((resolve) => worker.once('exit', resolve));
}

async function kill(worker: ChildProcess): Promise<void> {
  worker.kill('SIGKILL');
  await exited(worker);
  workers.delete(worker);
}

async function stop(worker: ChildProcess): Promise<void> {
  worker.send('shutdown');
  await exited(worker);
  workers.delete(worker);
}

/** Resolves once a worker has written the signal file `name` (checked every 10 ms). */
async function signalled(name: string): Promise<void> {
  const path = join(signalDir, name);
  while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 10));
  rmSync(path);
}

afterEach(async () => {
  for (const worker of [...workers]) await kill(worker);
});
afterAll(() => rmSync(signalDir, { recursive: true, force: true }));

/**
 * The instance's one execution committed each scheduled activity's completion exactly once and
 * ended exactly once, and the store holds no message or lock of it any more.
 */
async function expectCommittedOnce(provider: PostgresProvider, instance: string): Promise<void> {
  const history = await new Client(provider).readExecutionHistory(instance, 1);
  const scheduled = history.filter((e) => e.kind === 'ActivityScheduled').map((e) => e.eventId);
  const completedFor = history
    .filter((e) => e.kind === 'ActivityCompleted' || e.kind === 'ActivityFailed')
    .map((e) => e.sourceEventId);
  expect(completedFor).toEqual(scheduled);
  expect(history.filter((e) => e.kind === 'OrchestrationStarted')).toHaveLength(1);
  const terminal = history.filter((e) =>
    ['OrchestrationCompleted', 'OrchestrationFailed', 'OrchestrationContinuedAsNew'].includes(
      e.kind,
    ),
  );
  expect(terminal.map((e) => e.kind)).toEqual(['OrchestrationCompleted']);
  for (const table of ['orchestrator_queue', 'worker_queue', 'instance_locks']) {
    const rows = await database.query(
      `SELECT 1 FROM "${provider.schema}".${table} WHERE instance_id = $1`,
      [instance],
    );
    expect(rows, `${table} rows of ${instance}`).toHaveLength(0);
  }
}

/**
 * Starts `instance` on a worker in `role`, kills it with SIGKILL once it signals `when`, lets a
 * `finish` worker take over, and returns the instance's output once every step is known to be
 * committed exactly once.
 */
async function killThenTakeOver(
  label: string,
  role: WorkerRole,
  when: string,
  instance: string,
): Promise<unknown> {
  const provider = await database.newProvider({}, label);
  const client = new Client(provider);
  const crashing = await startWorker(provider.schema, role);
  await client.startOrchestration(instance, 'Pipeline');
  await signalled(when);
  await kill(crashing);

  const survivor = await startWorker(provider.schema, 'finish');
  const output = await client.waitForOrchestrationTyped(instance, 20_000);
  await stop(survivor);
  await expectCommittedOnce(provider, instance);
  return output;
}

describe('a worker process killed with SIGKILL', () => {
  it('mid-activity: another worker process runs the activity again and commits it once', async () => {
    // Step 1 was committed by the killed worker before it died; steps 2 and 3 by the survivor
    // once the dead worker's activity lock expired.
    expect(
      await killThenTakeOver(
        'crash_activity',
        'hang-in-activity',
        'step-2-started',
        'killed-in-activity',
      ),
    ).toEqual(['step 1 by hang-in-activity', 'step 2 by finish', 'step 3 by finish']);
  });

  it('right after an activity acknowledgement returned: that activity never runs again', async () => {
    const provider = await database.newProvider({}, 'crash_after_ack');
    const client = new Client(provider);
    rmSync(join(signalDir, 'runs'), { force: true });
    const dying = await startWorker(provider.schema, 'die-after-ack');
    await client.startOrchestration('killed-after-ack', 'Pipeline');
    await exited(dying);
    workers.delete(dying);
    expect(dying.signalCode).toBe('SIGKILL');

    const survivor = await startWorker(provider.schema, 'finish');
    expect(await client.waitForOrchestrationTyped('killed-after-ack', 20_000)).toEqual([
      'step 1 by die-after-ack',
      'step 2 by finish',
      'step 3 by finish',
    ]);
    await stop(survivor);
    await expectCommittedOnce(provider, 'killed-after-ack');
    expect(readFileSync(join(signalDir, 'runs'), 'utf8')).toBe('step 1\nstep 2\nstep 3\n');
  });

  it('mid-turn, before its ack: another worker process replays the turn and finishes', async () => {
    // Step 1's completion, delivered to the turn that died, is not lost: the survivor's turn
    // receives it again once the dead worker's instance lock expired.
    expect(
      await killThenTakeOver('crash_turn', 'hang-in-turn', 'turn-started', 'killed-in-turn'),
    ).toEqual(['step 1 by hang-in-turn', 'step 2 by finish', 'step 3 by finish']);
  });
});

describe("a worker's connections terminated mid-run", () => {
  it('the instance still completes and every step is committed once', async () => {
    const applicationName = `duro_dropped_${process.pid}`;
    const provider = await database.newProvider({ applicationName, poolSize: 4 }, 'dropped_run');
    // The test's client has connections of its own: only the worker's backends are terminated.
    const client = new Client(await database.attach(provider));
    let openGate = (): void => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let gatedStepStarted = false;
    const runtime = new Runtime(provider, {
      dispatcherPollIntervalMs: 10,
      dispatcherLongPollTimeoutMs: 200,
      logLevel: 'silent',
    });
    runtime.registerActivity('Step', async (_ctx, step: number) => {
      if (step === 2) {
        gatedStepStarted = true;
        await gate;
      }
      return step * 10;
    });
    runtime.registerOrchestration('Steps', function* (ctx: OrchestrationContext) {
      const results: unknown[] = [];
      for (let step = 1; step <= 3; step += 1)
        results.push(yield ctx.scheduleActivity('Step', step));
      return results;
    });
    await runtime.start();
    try {
      await client.startOrchestration('dropped', 'Steps');
      while (!gatedStepStarted) await new Promise((resolve) => setTimeout(resolve, 10));
      // Every backend of the runtime's pool goes: its waiting fetches and idle connections.
      const terminated = await database.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      expect(terminated.length).toBeGreaterThan(0);
      openGate();
      expect(await client.waitForOrchestrationTyped('dropped', 20_000)).toEqual([10, 20, 30]);
    } finally {
      await runtime.shutdown(5_000);
    }
    await expectCommittedOnce(provider, 'dropped');
  });
});
