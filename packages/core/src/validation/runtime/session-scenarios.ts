import { describe, expect, it } from 'vitest';
import type { Client } from '../../client/client.js';
import type { Runtime } from '../../runtime/runtime.js';
import type { OrchestrationContext } from '../../runtime/replay/orchestration-context.js';
import {
  OPTION_SETS,
  SCENARIO_OPTIONS,
  eventually,
  withRuntime,
  type RuntimeScenarioProviders,
} from './scenario-harness.js';

/** Which runtime ran each session's activities, in the order they ran. */
type RanIn = Map<string, string[]>;

/**
 * Registers `Step` on `runtime`, noting for the activity's session that it ran in `name`, and
 * the orchestrations the session scenarios use.
 */
function registerSessionWork(runtime: Runtime, name: string, ranIn: RanIn): void {
  runtime.registerActivity('Step', async (ctx, n: number) => {
    const session = ctx.sessionId ?? 'none';
    ranIn.set(session, [...(ranIn.get(session) ?? []), name]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return n;
  });
  runtime.registerOrchestration('Sequential', function* (ctx, session: string) {
    const results: number[] = [];
    for (const n of [1, 2, 3]) {
      results.push(yield* ctx.scheduleActivityOnSession<number>('Step', n, session));
    }
    return results;
  });
  runtime.registerOrchestration('FanOutOnSession', function* (ctx, session: string) {
    const results = yield* ctx.all(
      [1, 2, 3, 4, 5].map((n) => ctx.scheduleActivityOnSession<number>('Step', n, session)),
    );
    return results.map((entry) => entry.ok);
  });
  runtime.registerOrchestration('Resumed', function* (ctx, session: string) {
    const first = yield* ctx.scheduleActivityOnSession<number>('Step', 1, session);
    yield ctx.waitForEvent('go');
    const second = yield* ctx.scheduleActivityOnSession<number>('Step', 2, session);
    return [first, second];
  });
  runtime.registerOrchestration('Mixed', function* (ctx, session: string) {
    const first = yield* ctx.scheduleActivityOnSession<number>('Step', 1, session);
    const plain = yield* ctx.scheduleActivity<number>('Step', 2);
    const together = yield* ctx.all([
      ctx.scheduleActivityOnSession<number>('Step', 3, session),
      ctx.scheduleActivity<number>('Step', 4),
    ]);
    return [first, plain, ...together.map((entry) => entry.ok)];
  });
  const acrossContinueAsNew = (
    next: (ctx: OrchestrationContext, state: Carried) => unknown,
  ): ((ctx: OrchestrationContext, state: Carried) => Generator<unknown, unknown, unknown>) =>
    function* (ctx, state) {
      const n = yield* ctx.scheduleActivityOnSession<number>('Step', state.round, state.session);
      const done = [...state.done, n];
      if (state.round === 3) return done;
      return yield next(ctx, { ...state, round: state.round + 1, done });
    };
  runtime.registerOrchestration(
    'Rounds',
    acrossContinueAsNew((ctx, state) => ctx.continueAsNew(state)),
  );
  runtime.registerOrchestration(
    'VersionedRounds',
    acrossContinueAsNew((ctx, state) => ctx.continueAsNewVersioned(state, '2.0.0')),
  );
  runtime.registerOrchestrationVersioned(
    'VersionedRounds',
    '2.0.0',
    acrossContinueAsNew((ctx, state) => ctx.continueAsNewVersioned(state, '2.0.0')),
  );
}

/** What the continue-as-new scenarios carry from one execution to the next. */
interface Carried {
  readonly session: string;
  readonly round: number;
  readonly done: number[];
}

/** Expects every activity of `session` to have run in one runtime. */
function expectOneRuntime(ranIn: RanIn, session: string, activities: number): void {
  const runtimes = ranIn.get(session) ?? [];
  expect(runtimes, `the activities of ${session}`).toHaveLength(activities);
  expect(new Set(runtimes).size, `the runtimes ${session} ran in`).toBe(1);
}

/**
 * Scenarios about sessions: each one's activities run in the runtime that owns it, promptly, on
 * every fetch path. Two runtimes serve the store, so that a session's activities could go to
 * either; every wait is far shorter than a fetch's long poll, which is how long a session
 * activity nobody could claim would sit.
 */
export function sessionScenarios(providers: RuntimeScenarioProviders): void {
  describe.each(OPTION_SETS)('%s', (_options, base) => {
    const withTwoRuntimes = (
      body: (client: Client, ranIn: RanIn) => Promise<void>,
    ): Promise<void> => {
      const ranIn: RanIn = new Map();
      return withRuntime(
        providers,
        (runtime) => registerSessionWork(runtime, 'first', ranIn),
        async ({ client, startRuntime }) => {
          await startRuntime((runtime) => registerSessionWork(runtime, 'second', ranIn));
          await body(client, ranIn);
        },
        {},
        base,
      );
    };

    it('activities scheduled one after another on a session all run, in one runtime', () =>
      withTwoRuntimes(async (client, ranIn) => {
        await client.startOrchestration('sequential', 'Sequential', 'session-seq');
        expect(await client.waitForOrchestrationTyped('sequential', 10_000)).toEqual([1, 2, 3]);
        expectOneRuntime(ranIn, 'session-seq', 3);
      }));

    it('a fan-out on one session runs every activity in one runtime', () =>
      withTwoRuntimes(async (client, ranIn) => {
        await client.startOrchestration('fan-out', 'FanOutOnSession', 'session-fan');
        expect(await client.waitForOrchestrationTyped('fan-out', 10_000)).toEqual([1, 2, 3, 4, 5]);
        expectOneRuntime(ranIn, 'session-fan', 5);
      }));

    it('more sessions than maxSessionsPerRuntime all complete, each in one runtime', () =>
      withTwoRuntimes(async (client, ranIn) => {
        // Two runtimes of ten sessions each (the default) serve twenty-five sessions.
        const sessions = Array.from({ length: 25 }, (_, i) => `session-${i}`);
        await Promise.all(
          sessions.map((session) => client.startOrchestration(session, 'Sequential', session)),
        );
        for (const session of sessions) {
          expect(await client.waitForOrchestrationTyped(session, 20_000)).toEqual([1, 2, 3]);
          expectOneRuntime(ranIn, session, 3);
        }
      }));

    it('session activities mixed with plain ones complete, the session ones in one runtime', () =>
      withTwoRuntimes(async (client, ranIn) => {
        await client.startOrchestration('mixed', 'Mixed', 'session-mixed');
        expect(await client.waitForOrchestrationTyped('mixed', 10_000)).toEqual([1, 2, 3, 4]);
        expectOneRuntime(ranIn, 'session-mixed', 2);
        expect(ranIn.get('none')).toHaveLength(2);
      }));

    it.each(['Rounds', 'VersionedRounds'])(
      'a session keeps its runtime across continue-as-new (%s)',
      (orchestration) =>
        withTwoRuntimes(async (client, ranIn) => {
          const state: Carried = { session: `session-${orchestration}`, round: 1, done: [] };
          await client.startOrchestration('rounds', orchestration, state);
          expect(await client.waitForOrchestrationTyped('rounds', 10_000)).toEqual([1, 2, 3]);
          expectOneRuntime(ranIn, state.session, 3);
          const executions = await client.listExecutions('rounds');
          expect(executions).toHaveLength(3);
        }),
    );
  });

  it('another runtime takes a session over once its owner is gone and the session lock lapsed', async () => {
    const ranIn: RanIn = new Map();
    // A short session lock, so that the lapse comes within the test.
    const sessionLock = { sessionLockTimeoutMs: 1_000 };
    await withRuntime(
      providers,
      () => undefined,
      async ({ client, startRuntime }) => {
        const owner = await startRuntime(
          (runtime) => registerSessionWork(runtime, 'owner', ranIn),
          sessionLock,
        );
        await client.startOrchestration('resumed', 'Resumed', 'session-gone');
        await eventually('the owner ran the first activity and the orchestration waits', async () =>
          (await client.readExecutionHistory('resumed', 1)).some(
            (event) => event.kind === 'ExternalSubscribed',
          ),
        );
        expect(ranIn.get('session-gone')).toEqual(['owner']);
        await owner.shutdown(1_000);
        await startRuntime(
          (runtime) => registerSessionWork(runtime, 'successor', ranIn),
          sessionLock,
        );
        await client.raiseEvent('resumed', 'go', null);
        expect(await client.waitForOrchestrationTyped('resumed', 20_000)).toEqual([1, 2]);
        expect(ranIn.get('session-gone')).toEqual(['owner', 'successor']);
      },
      // The scenario's own runtime stays idle.
      { orchestrationConcurrency: 0, workerTagFilter: 'none' },
      SCENARIO_OPTIONS,
    );
  });
}
