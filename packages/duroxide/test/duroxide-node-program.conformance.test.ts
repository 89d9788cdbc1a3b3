import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { useStores } from './support/stores.js';

const stores = useStores();
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const program = fileURLToPath(new URL('./programs/order-fulfilment.cjs', import.meta.url));
const logs = mkdtempSync(join(tmpdir(), 'duro-program-logs-'));
afterAll(() => rmSync(logs, { recursive: true, force: true }));

interface ProgramRun {
  /** What the program printed as `RESULT <json>`. */
  readonly result: Record<string, unknown>;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  /** Ends the process if it still runs. */
  readonly stop: () => void;
}

/**
 * Runs the duroxide-node program in a process of its own, as an application runs (from this
 * package's folder, so `require('@duro/duroxide')` finds the built package), and resolves with
 * its result once printed.
 */
async function runProgram(environment: Record<string, string>): Promise<ProgramRun> {
  const child = spawn(process.execPath, [program], {
    cwd: packageRoot,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await Promise.race([
    new Promise<string>((resolve) => {
      child.stdout.on('data', () => {
        const found = stdout.split('\n').find((text) => text.startsWith('RESULT '));
        if (found !== undefined) resolve(found);
      });
    }),
    exited.then((code) => {
      throw new Error(`the program exited (${code}) without a result:\n${stderr}`);
    }),
  ]);
  return {
    result: JSON.parse(line.slice('RESULT '.length)) as Record<string, unknown>,
    exited,
    stop: () => {
      if (child.exitCode === null) child.kill();
    },
  };
}

/** The program's observations, checked field by field against duroxide-node's behaviour. */
function expectDuroxideNodeResult(result: Record<string, unknown>): void {
  expect(result.limits).toEqual({ MAX_KV_KEYS: 150, MAX_WORKER_TAGS: 5 });
  expect(result.done).toEqual({
    status: 'Completed',
    customStatus: 'done',
    output: {
      charge: 'charged 120',
      invoice: 'invoice A-1 on gpu',
      approvedBy: 'alice',
      note: 'leave at the door',
      shipped: 'shipped A-1',
      trackingIdLength: 36,
      finishedAtIsNumber: true,
      notified: 'order A-1 done (Running)',
      reserved: '2',
    },
  });
  expect(result.failed).toEqual({
    status: 'Failed',
    error: 'payment failed: card declined for 5000',
    customStatus: 'payment failed',
  });
  // One charge for the first order, two attempts (maxAttempts 2) for the declined one.
  expect(result.chargeCalls).toBe(3);
  expect(result.counted).toBe(3);
  expect(result.executionsBefore).toEqual([1, 2, 3, 4]);
  expect(result.pruned).toEqual({
    instancesProcessed: 1,
    executionsDeleted: 3,
    eventsDeleted: expect.any(Number) as number,
  });
  expect(result.executionsAfter).toEqual([4]);

  const tree = result.tree as { rootId: string; allIds: string[]; size: number };
  expect(Object.keys(tree)).toEqual(['rootId', 'allIds', 'size']);
  expect(tree.rootId).toBe('order-1');
  expect(tree.allIds).toHaveLength(2);
  expect(tree.allIds[0]).toBe('order-1');
  expect(tree.allIds[1]).toMatch(/^order-1::sub::\d+$/);
  expect(tree.size).toBe(2);

  const history = result.history as { kind: string; data?: unknown }[];
  const dataOf = (kind: string) => history.filter((event) => event.kind === kind);
  expect(history[0]).toEqual({
    kind: 'OrchestrationStarted',
    data: {
      name: 'ProcessOrder',
      version: '1.0.0',
      input: { id: 'A-1', items: ['book', 'lamp'], total: 120 },
    },
  });
  expect(dataOf('ActivityScheduled').map((event) => event.data)).toEqual(
    expect.arrayContaining([
      { name: 'Reserve', input: { id: 'A-1', items: ['book', 'lamp'], total: 120 } },
      { name: 'RenderInvoice', input: 'A-1' },
      { name: 'Charge', input: 120 },
      { name: '__duroxide_syscall:new_guid', input: '' },
    ]),
  );
  expect(dataOf('ExternalEvent')).toEqual([
    { kind: 'ExternalEvent', data: { name: 'Approve', data: { by: 'alice' } } },
  ]);
  expect(dataOf('QueueEventDelivered')).toEqual([
    { kind: 'QueueEventDelivered', data: { name: 'notes', data: 'leave at the door' } },
  ]);
  expect(dataOf('SubOrchestrationCompleted')).toEqual([
    { kind: 'SubOrchestrationCompleted', data: 'shipped A-1' },
  ]);
  expect(dataOf('CustomStatusUpdated').every((event) => event.data === undefined)).toBe(true);
  expect(history.at(-1)).toEqual({
    kind: 'OrchestrationCompleted',
    data: (result.done as { output: unknown }).output,
  });

  expect(result.info).toEqual({
    status: 'Completed',
    output: (result.done as { output: unknown }).output,
    orchestrationName: 'ProcessOrder',
  });
  expect(result.kv).toEqual({ reserved: '2' });
  expect(result.reserved).toBe('2');
  expect(result.stats).toEqual({
    historyEventCount: history.length,
    historySizeBytes: expect.any(Number) as number,
    queuePendingCount: 0,
    kvUserKeyCount: 1,
    kvTotalValueBytes: 1,
  });
  expect(result.metrics).toEqual({
    orchStarts: expect.any(Number) as number,
    suborchestrationCalls: 1,
    activityConfigErrors: 0,
    providerErrors: 0,
    activityAppErrors: 2,
  });
  expect(result.prunedBulk).toEqual({
    instancesProcessed: expect.any(Number) as number,
    executionsDeleted: 0,
    eventsDeleted: 0,
  });
  expect(result.deleted).toEqual({
    instancesDeleted: 1,
    executionsDeleted: 1,
    eventsDeleted: expect.any(Number) as number,
    queueMessagesDeleted: 0,
  });
  expect(result.system).toEqual({
    totalInstances: 3,
    totalExecutions: 3,
    runningInstances: 0,
    completedInstances: 3,
    failedInstances: 0,
    totalEvents: expect.any(Number) as number,
  });
  expect(result.depths).toEqual({ orchestratorQueue: 0, workerQueue: 0, timerQueue: 0 });
}

/** initTracing's file got the runtime's lines in the compact format. */
function expectTraceLines(logFile: string): void {
  const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
  expect(lines[0]).toMatch(/^\S+Z {2}INFO duro: duro runtime starting with provider \S+ \(\S+\)/);
  expect(lines.some((line) => line.includes('INFO duro: reserving 2 items for order-1'))).toBe(
    true,
  );
}

describe('a duroxide-node program run unchanged through @duro/duroxide', () => {
  for (const store of stores) {
    it(`on ${store.label}, it sees what duroxide-node shows it and ends on its own`, async () => {
      const logFile = join(logs, `${store.label.replaceAll(' ', '-')}.log`);
      const run = await runProgram({ ...store.programEnvironment(), DURO_LOG_FILE: logFile });
      try {
        expectDuroxideNodeResult(run.result);
        expectTraceLines(logFile);
        // Like a duroxide-node program, it never closes its provider: the process ends once
        // the runtime has shut down (the test's timeout bounds the wait).
        expect(await run.exited).toBe(0);
      } finally {
        run.stop();
      }
    });
  }
});
