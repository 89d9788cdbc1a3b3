import { Client, Runtime, type OrchestrationContext, type Provider } from '@duro/core';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import type { PostgresProvider } from '../src/index.js';

const database = useTestDatabase();
const LOCK_TIMEOUT_MS = 1_000;
// Three lock timeouts: an unrenewed lock would have expired twice over, with a rival polling.
const OUTLIVE_LOCK_MS = 3 * LOCK_TIMEOUT_MS;
const runtimes: Runtime[] = [];

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function startRuntime(
  provider: Provider,
  configure: (runtime: Runtime) => void,
): Promise<Runtime> {
  const runtime = new Runtime(provider, {
    dispatcherPollIntervalMs: 10,
    dispatcherLongPollTimeoutMs: 200,
    orchestratorLockTimeoutMs: LOCK_TIMEOUT_MS,
    workerLockTimeoutMs: LOCK_TIMEOUT_MS,
    logLevel: 'silent',
  });
  configure(runtime);
  await runtime.start();
  runtimes.push(runtime);
  return runtime;
}

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown(2_000)));
});

async function historyKinds(provider: Provider, instance: string): Promise<string[]> {
  return (await new Client(provider).readExecutionHistory(instance, 1)).map((e) => e.kind);
}

describe('lock renewal on PostgreSQL', () => {
  it('an activity that outlives its lock keeps it: a polling rival never runs it', async () => {
    const provider = await database.newProvider({}, 'renew_activity');
    const client = new Client(provider);
    const work = function* (ctx: OrchestrationContext): Generator<unknown, unknown, unknown> {
      return yield ctx.scheduleActivity('Slow');
    };
    let started = false;
    let rivalRuns = 0;
    await startRuntime(provider, (runtime) => {
      runtime.registerOrchestration('Work', work);
      runtime.registerActivity('Slow', async () => {
        started = true;
        await pause(OUTLIVE_LOCK_MS);
        return 'kept its lock';
      });
    });
    await client.startOrchestration('slow-activity', 'Work');
    while (!started) await pause(10);
    await startRuntime(await database.attach(provider), (runtime) => {
      runtime.registerOrchestration('Work', work);
      runtime.registerActivity('Slow', async () => {
        rivalRuns += 1;
        return 'taken over';
      });
    });

    expect(await client.waitForOrchestrationTyped('slow-activity', 20_000)).toBe('kept its lock');
    expect(rivalRuns).toBe(0);
    const kinds = await historyKinds(provider, 'slow-activity');
    expect(kinds.filter((kind) => kind === 'ActivityCompleted')).toHaveLength(1);
  });

  it('a turn whose ack is delayed past its lock timeout keeps the lock and commits', async () => {
    const provider = await database.newProvider({}, 'renew_turn');
    let ackDelayed = false;
    let ackOutcome: 'committed' | Error | undefined;
    // The real provider, with the first ack held back while the turn's lock would run out.
    const slowAcks = new Proxy(provider, {
      get(target, property) {
        // The runtime commits through the batch call; the single one is held back the same way.
        if (property === 'ackOrchestrationItems') {
          return async (...args: Parameters<PostgresProvider['ackOrchestrationItems']>) => {
            ackDelayed = true;
            await pause(OUTLIVE_LOCK_MS);
            const outcomes = await target.ackOrchestrationItems(...args);
            const failed = outcomes.find((outcome) => !outcome.ok);
            ackOutcome ??= failed === undefined || failed.ok ? 'committed' : failed.error;
            return outcomes;
          };
        }
        if (property === 'ackOrchestrationItem') {
          return async (...args: Parameters<Provider['ackOrchestrationItem']>) => {
            ackDelayed = true;
            await pause(OUTLIVE_LOCK_MS);
            try {
              await target.ackOrchestrationItem(...args);
              ackOutcome ??= 'committed';
            } catch (error) {
              ackOutcome ??= error instanceof Error ? error : new Error(String(error));
              throw error;
            }
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function'
          ? (value as (...args: unknown[]) => unknown).bind(target)
          : value;
      },
    });
    let rivalTurns = 0;
    await startRuntime(slowAcks, (runtime) => {
      // eslint-disable-next-line require-yield -- finishes in its first turn
      runtime.registerOrchestration('Quick', function* () {
        return 'committed by the first runtime';
      });
    });
    const client = new Client(provider);
    await client.startOrchestration('slow-ack', 'Quick');
    while (!ackDelayed) await pause(10);
    await startRuntime(await database.attach(provider), (runtime) => {
      // eslint-disable-next-line require-yield -- finishes in its first turn
      runtime.registerOrchestration('Quick', function* () {
        rivalTurns += 1;
        return 'committed by the rival';
      });
    });

    expect(await client.waitForOrchestrationTyped('slow-ack', 20_000)).toBe(
      'committed by the first runtime',
    );
    expect(ackOutcome).toBe('committed');
    expect(rivalTurns).toBe(0);
    expect(await historyKinds(provider, 'slow-ack')).toEqual([
      'OrchestrationStarted',
      'OrchestrationCompleted',
    ]);
  });
});
