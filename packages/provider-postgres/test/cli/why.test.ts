import { Client, Runtime } from '@duro/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../../src/index.js';
import { runDuro } from '../support/duro-cli.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();
let provider: PostgresProvider;
let client: Client;
let runtime: Runtime | null = null;

async function why(...args: string[]) {
  return runDuro(['why', ...args, '--schema', provider.schema], { DATABASE_URL: database.url });
}

async function runtimeUntil(instanceId: string, status: string): Promise<void> {
  while ((await client.getStatus(instanceId)).status !== status) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  provider = await database.newProvider({}, 'cli_why');
  client = new Client(provider);
});

afterAll(async () => {
  await runtime?.shutdown();
});

describe('duro why', () => {
  it('names the lock token holding an instance, and how long the lease has left', async () => {
    await client.startOrchestration('why-locked', 'Anything');
    const fetched = await provider.fetchOrchestrationItem(60_000, 0, null);
    expect(fetched?.item.instance).toBe('why-locked');
    const run = await why('why-locked');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`why-locked: locked by lock token ${fetched?.lockToken} since `);
    expect(run.stdout).toMatch(/until \S+ \(\d+\.\d s left\): a dispatcher is running a turn/);
    expect(run.stdout).toContain('no turn has committed yet');
    const json = JSON.parse((await why('why-locked', '--json')).stdout) as {
      diagnosis: { lock: { lockToken: string } };
    };
    expect(json.diagnosis.lock.lockToken).toBe(fetched?.lockToken);
    await provider.abandonOrchestrationItem(fetched?.lockToken ?? '', 60_000, false);
  });

  it('says when the next message becomes visible and how many attempts are left', async () => {
    const run = await why('why-locked', '--max-attempts', '3');
    expect(run.stdout).toMatch(
      /why-locked: next message \(StartOrchestration\) becomes visible at \S+, in \d+\.\d s/,
    );
    // Two more fetches that never commit: the third attempt is the last before poison.
    for (let attempt = 2; attempt <= 3; attempt += 1) {
      await provider.abandonOrchestrationItem(
        (await provider.fetchOrchestrationItem(60_000, 0, null))?.lockToken ??
          (await forceVisible('why-locked')),
        null,
        false,
      );
    }
    const last = await why('why-locked', '--max-attempts', '3');
    expect(last.stdout).toContain(
      '! attempt 3 of 3: the next fetch fails the instance as poison (if that ack commits)',
    );
  });

  it('points at a tagged activity no worker takes, and at the owner and lease of its session', async () => {
    runtime = new Runtime(provider, {
      dispatcherPollIntervalMs: 20,
      logLevel: 'silent',
      workerTagFilter: 'none',
    });
    runtime.registerOrchestration('OnGpu', function* (ctx) {
      return yield* ctx.scheduleActivityOnSession('Render', null, 'gpu-session').withTag('gpu');
    });
    await runtime.start();
    await client.startOrchestration('why-tagged', 'OnGpu');
    await runtimeUntil('why-tagged', 'Running');
    await runtime.shutdown();
    runtime = null;

    const unserved = await why('why-tagged', '--idle-worker-after', '0');
    expect(unserved.stdout).toMatch(
      /why-tagged: activity Render #2 \(tag 'gpu'\) has waited [^:]+ for a worker: no running worker seems to take tag 'gpu'/,
    );
    expect(unserved.stdout).toContain('session gpu-session has no owner yet');

    const claimed = await provider.fetchWorkItem(
      60_000,
      0,
      { ownerId: 'worker-a', lockTimeoutMs: 60_000 },
      { type: 'Tags', tags: ['gpu'] },
    );
    expect(claimed?.item.type).toBe('ActivityExecute');
    const owned = await why('why-tagged');
    expect(owned.stdout).toMatch(
      /activity Render #2 \(tag 'gpu'\) is running: locked until \S+ \(\d+\.\d s left\), attempt 1\/10/,
    );
    expect(owned.stdout).toMatch(
      /session gpu-session is owned by worker-a until \S+ \(\d+\.\d s left\)/,
    );
  });

  it('flags an execution pinned to a duroxide newer than the runtimes replay', async () => {
    await database.query(
      `UPDATE "${provider.schema}".executions SET duroxide_version_minor = 9 WHERE instance_id = 'why-tagged'`,
    );
    const run = await why('why-tagged');
    expect(run.stdout).toContain(
      '! execution 1 is pinned to duroxide 0.9.32, newer than the 0.1.32 the runtimes replay',
    );
    const wider = await why('why-tagged', '--replay-max-version', '0.9.40');
    expect(wider.stdout).toContain(
      '- execution 1 is pinned to duroxide 0.9.32 (runtimes replay up to 0.9.40)',
    );
  });

  it('says a finished instance is not running because it ended, and an unknown one is not found', async () => {
    runtime = new Runtime(provider, { dispatcherPollIntervalMs: 20, logLevel: 'silent' });
    runtime.registerOrchestration('Quick', function* () {
      return yield* [];
    });
    await runtime.start();
    await client.startOrchestration('why-done', 'Quick');
    await client.waitForOrchestration('why-done', 30_000);
    const done = await why('why-done');
    expect(done.stdout).toMatch(/^why-done: not running: execution 1 Completed at \S+\n$/);
    const missing = await why('why-nobody');
    expect(missing).toEqual({
      code: 3,
      stdout: '',
      stderr: "duro why: instance 'why-nobody' not found\n",
    });
  });
});

/** Makes a delayed message of `instanceId` visible now and fetches it; returns its lock token. */
async function forceVisible(instanceId: string): Promise<string> {
  await database.query(
    `UPDATE "${provider.schema}".orchestrator_queue SET visible_at = now() WHERE instance_id = $1`,
    [instanceId],
  );
  const fetched = await provider.fetchOrchestrationItem(60_000, 0, null);
  if (!fetched) throw new Error(`no message of ${instanceId} to fetch`);
  return fetched.lockToken;
}
