import type { Client, OrchestrationContext, Runtime } from '@duro/core';

/**
 * One benchmark workload, implemented once for duro here and once for the Rust runtime in
 * packages/native/src/rust_runtime/benchmark/workloads.rs (under the same orchestration and activity names, with the same
 * inputs), so both runtimes do the same work.
 */
export interface Workload {
  /** The name on the command line and in the results; also the Rust side's workload name. */
  readonly name: string;
  /** What one instance does, for the report. */
  readonly description: string;
  /** Instances kept running at once unless `--in-flight` says otherwise. */
  readonly defaultInFlight: number;
  /** The orchestration every instance runs. */
  readonly orchestration: string;
  /** The input of every instance. */
  readonly input: unknown;
  /** What its instances sleep (activities and timers), for the ceiling this sets; none: no sleep. */
  readonly sleeps?: SleepShape;
  /** What the client does right after starting an instance (queue burst sends its messages). */
  afterStart?(client: Client, instanceId: string): Promise<void>;
}

/** What sleeping one instance does: a lower bound of its time, and of a cell's capacity. */
export interface SleepShape {
  /** Activities of one instance that sleep, and how long each sleeps, ms. */
  readonly sleepingActivities: number;
  readonly activityMs: number;
  /** The sleeps (activities and timers) one after another on the instance's way, ms in all. */
  readonly criticalPathMs: number;
}

const BURST_MESSAGES = 10;
const BURST_QUEUE = 'burst';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The activities every fan-out and sequence uses: a sleep, or a no-op that returns its index. */
function registerActivities(runtime: Runtime): void {
  runtime.registerActivity('BenchSleep', async (_ctx, ms: number) => {
    await sleep(ms);
    return ms;
  });
  runtime.registerActivity('BenchNoop', async (_ctx, index: number) => index);
}

/** `[count, ms]`: how many activities (or timers) an instance runs, and how long each sleeps. */
type CountAndMs = readonly [count: number, ms: number];

/** The activity a fan-out or sequence schedules: a sleep of `ms`, or a no-op for 0. */
const activity = (ctx: OrchestrationContext, index: number, ms: number) =>
  ms === 0
    ? ctx.scheduleActivity<number>('BenchNoop', index)
    : ctx.scheduleActivity<number>('BenchSleep', ms);

/** Registers every workload's orchestrations and activities (the worker serves them all). */
export function registerWorkloads(runtime: Runtime): void {
  registerActivities(runtime);
  runtime.registerActivity('BenchGreet', async (_ctx, name: string) => `Hello, ${name}!`);
  runtime.registerOrchestration('BenchHello', function* (ctx, name: string) {
    return yield* ctx.scheduleActivity<string>('BenchGreet', name);
  });
  runtime.registerOrchestration('BenchFanOut', function* (ctx, [count, ms]: CountAndMs) {
    const tasks = Array.from({ length: count }, (_, index) => activity(ctx, index, ms));
    const results = yield* ctx.all(tasks);
    return results.length;
  });
  runtime.registerOrchestration('BenchSequential', function* (ctx, [count, ms]: CountAndMs) {
    for (let index = 0; index < count; index++) yield* activity(ctx, index, ms);
    return count;
  });
  runtime.registerOrchestration('BenchTimers', function* (ctx, [count, ms]: CountAndMs) {
    for (let i = 0; i < count; i++) yield* ctx.scheduleTimer(ms);
    return count;
  });
  runtime.registerOrchestration('BenchChain', function* (ctx, remaining: number) {
    if (remaining > 0) yield* ctx.continueAsNew(remaining - 1);
    return 'done';
  });
  runtime.registerOrchestration('BenchQueueBurst', function* (ctx, count: number) {
    let sum = 0;
    for (let i = 0; i < count; i++) sum += yield* ctx.dequeueEvent<number>(BURST_QUEUE);
    return sum;
  });
}

const fanOut = (name: string, count: number, ms: number, defaultInFlight: number): Workload => ({
  name,
  description: `${count} ${ms === 0 ? 'no-op activities' : `activities of ${ms} ms`} at once, joined; ${defaultInFlight} in flight`,
  defaultInFlight,
  orchestration: 'BenchFanOut',
  input: [count, ms],
  ...(ms === 0
    ? {}
    : { sleeps: { sleepingActivities: count, activityMs: ms, criticalPathMs: ms } }),
});

const sequence = (name: string, count: number, ms: number): Workload => ({
  name,
  description: `${count} activities of ${ms} ms one after another; 20 in flight`,
  defaultInFlight: 20,
  orchestration: 'BenchSequential',
  input: [count, ms],
  sleeps: { sleepingActivities: count, activityMs: ms, criticalPathMs: count * ms },
});

const TIMERS = 3;
const TIMER_MS = 10;
/** Executions of one continue-as-new chain: the input counts down to 0. */
const CHAIN_EXECUTIONS = 10;

/** Every workload, in the order they run. */
export const WORKLOADS: readonly Workload[] = [
  {
    name: 'hello',
    description: 'one activity that returns a greeting; one instance at a time (light load)',
    defaultInFlight: 1,
    orchestration: 'BenchHello',
    input: 'bench',
  },
  fanOut('fan-out-5', 5, 10, 20),
  fanOut('fan-out-5-noop', 5, 0, 20),
  sequence('sequential-5', 5, 10),
  {
    name: 'timers-3',
    description: `${TIMERS} durable timers of ${TIMER_MS} ms one after another; 20 in flight`,
    defaultInFlight: 20,
    orchestration: 'BenchTimers',
    input: [TIMERS, TIMER_MS],
    sleeps: { sleepingActivities: 0, activityMs: 0, criticalPathMs: TIMERS * TIMER_MS },
  },
  {
    name: 'can-chain-10',
    description: `a chain of ${CHAIN_EXECUTIONS} executions, each continuing as new; 20 in flight`,
    defaultInFlight: 20,
    orchestration: 'BenchChain',
    input: CHAIN_EXECUTIONS - 1,
  },
  fanOut('fan-out-100', 100, 0, 10),
  sequence('sequential-50', 50, 1),
  {
    name: 'queue-burst',
    description: `${BURST_MESSAGES} queue messages sent right after the start, dequeued in order; 20 in flight`,
    defaultInFlight: 20,
    orchestration: 'BenchQueueBurst',
    input: BURST_MESSAGES,
    async afterStart(client, instanceId) {
      for (let i = 0; i < BURST_MESSAGES; i++) {
        await client.enqueueEvent(instanceId, BURST_QUEUE, i);
      }
    },
  },
];

/** The workloads a run measures unless `--workloads` names others. */
export const DEFAULT_WORKLOADS: readonly string[] = [
  'hello',
  'fan-out-5',
  'fan-out-5-noop',
  'sequential-5',
  'timers-3',
  'can-chain-10',
  'fan-out-100',
];

/**
 * The most orchestrations per second a cell can complete when nothing but the workload's sleeps
 * took time: `activitiesAtOnce` activities sleeping side by side, and `inFlight` instances each
 * waiting out its critical path. `null` for a workload that does not sleep.
 */
export function sleepCeiling(
  workload: Workload,
  activitiesAtOnce: number,
  inFlight: number,
): number | null {
  const sleeps = workload.sleeps;
  if (sleeps === undefined) return null;
  const byInFlight = (inFlight * 1000) / sleeps.criticalPathMs;
  const activityMs = sleeps.sleepingActivities * sleeps.activityMs;
  return activityMs === 0
    ? byInFlight
    : Math.min(byInFlight, (activitiesAtOnce * 1000) / activityMs);
}

/** The workloads named in `names`, in the order given. */
export function workloadsNamed(names: readonly string[]): Workload[] {
  return names.map((name) => {
    const found = WORKLOADS.find((w) => w.name === name);
    if (found === undefined) {
      throw new RangeError(
        `unknown workload ${JSON.stringify(name)}; known: ${WORKLOADS.map((w) => w.name).join(', ')}`,
      );
    }
    return found;
  });
}
