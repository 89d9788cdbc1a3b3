import type { Client, Runtime } from '@duro/core';

/**
 * One benchmark workload, implemented once for duro here and once for the Rust runtime in
 * packages/native/src/benchmark (under the same orchestration and activity names, with the same
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
  /** Registers the workload's orchestration and activities on a duro runtime. */
  register(runtime: Runtime): void;
  /** What the client does right after starting an instance (queue burst sends its messages). */
  afterStart?(client: Client, instanceId: string): Promise<void>;
}

/** Activities of fan-out-5 and sequential-5, and how long each sleeps (the duroxide-pg stress shape). */
const ACTIVITIES_PER_INSTANCE = 5;
const ACTIVITY_MS = 10;
/** Activities of sequential-50, whose history grows to about a hundred events, and their sleep. */
const LONG_SEQUENCE_ACTIVITIES = 50;
const LONG_SEQUENCE_ACTIVITY_MS = 1;
const TIMERS_PER_INSTANCE = 5;
const TIMER_MS = 10;
/** Executions of one continue-as-new chain: the input counts down to 0. */
const CHAIN_EXECUTIONS = 5;
const BURST_MESSAGES = 10;
const BURST_QUEUE = 'burst';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers an orchestration that runs `count` sleep activities one after another. */
function registerSequence(runtime: Runtime, orchestration: string, count: number): void {
  registerSleepActivity(runtime);
  runtime.registerOrchestration(orchestration, function* (ctx, ms: number) {
    for (let i = 0; i < count; i++) {
      yield* ctx.scheduleActivity<number>('BenchSleep', ms);
    }
    return count;
  });
}

function registerSleepActivity(runtime: Runtime): void {
  runtime.registerActivity('BenchSleep', async (_ctx, ms: number) => {
    await sleep(ms);
    return ms;
  });
}

const hello: Workload = {
  name: 'hello',
  description: 'one activity that returns a greeting; one instance at a time (light load)',
  defaultInFlight: 1,
  orchestration: 'BenchHello',
  input: 'bench',
  register(runtime) {
    runtime.registerActivity('BenchGreet', async (_ctx, name: string) => `Hello, ${name}!`);
    runtime.registerOrchestration('BenchHello', function* (ctx, name: string) {
      return yield* ctx.scheduleActivity<string>('BenchGreet', name);
    });
  },
};

const fanOut5: Workload = {
  name: 'fan-out-5',
  description: `${ACTIVITIES_PER_INSTANCE} activities of ${ACTIVITY_MS} ms at once, joined; 20 in flight`,
  defaultInFlight: 20,
  orchestration: 'BenchFanOut',
  input: ACTIVITY_MS,
  register(runtime) {
    registerSleepActivity(runtime);
    runtime.registerOrchestration('BenchFanOut', function* (ctx, ms: number) {
      const tasks = Array.from({ length: ACTIVITIES_PER_INSTANCE }, () =>
        ctx.scheduleActivity<number>('BenchSleep', ms),
      );
      const results = yield* ctx.all(tasks);
      return results.length;
    });
  },
};

const sequential5: Workload = {
  name: 'sequential-5',
  description: `${ACTIVITIES_PER_INSTANCE} activities of ${ACTIVITY_MS} ms one after another; 20 in flight`,
  defaultInFlight: 20,
  orchestration: 'BenchSequential',
  input: ACTIVITY_MS,
  register(runtime) {
    registerSequence(runtime, 'BenchSequential', ACTIVITIES_PER_INSTANCE);
  },
};

const sequential50: Workload = {
  name: 'sequential-50',
  description: `${LONG_SEQUENCE_ACTIVITIES} activities of ${LONG_SEQUENCE_ACTIVITY_MS} ms one after another, a history of about a hundred events; 20 in flight`,
  defaultInFlight: 20,
  orchestration: 'BenchLongSequence',
  input: LONG_SEQUENCE_ACTIVITY_MS,
  register(runtime) {
    registerSequence(runtime, 'BenchLongSequence', LONG_SEQUENCE_ACTIVITIES);
  },
};

const timerHeavy: Workload = {
  name: 'timer-heavy',
  description: `${TIMERS_PER_INSTANCE} durable timers of ${TIMER_MS} ms one after another; 20 in flight`,
  defaultInFlight: 20,
  orchestration: 'BenchTimers',
  input: TIMER_MS,
  register(runtime) {
    runtime.registerOrchestration('BenchTimers', function* (ctx, ms: number) {
      for (let i = 0; i < TIMERS_PER_INSTANCE; i++) yield* ctx.scheduleTimer(ms);
      return TIMERS_PER_INSTANCE;
    });
  },
};

const continueAsNewChain: Workload = {
  name: 'continue-as-new',
  description: `a chain of ${CHAIN_EXECUTIONS} executions, each continuing as new; 20 in flight`,
  defaultInFlight: 20,
  orchestration: 'BenchChain',
  input: CHAIN_EXECUTIONS - 1,
  register(runtime) {
    runtime.registerOrchestration('BenchChain', function* (ctx, remaining: number) {
      if (remaining > 0) yield* ctx.continueAsNew(remaining - 1);
      return 'done';
    });
  },
};

const queueBurst: Workload = {
  name: 'queue-burst',
  description: `${BURST_MESSAGES} queue messages sent right after the start, dequeued in order; 20 in flight`,
  defaultInFlight: 20,
  orchestration: 'BenchQueueBurst',
  input: BURST_MESSAGES,
  register(runtime) {
    runtime.registerOrchestration('BenchQueueBurst', function* (ctx, count: number) {
      let sum = 0;
      for (let i = 0; i < count; i++) sum += yield* ctx.dequeueEvent<number>(BURST_QUEUE);
      return sum;
    });
  },
  async afterStart(client, instanceId) {
    for (let i = 0; i < BURST_MESSAGES; i++) await client.enqueueEvent(instanceId, BURST_QUEUE, i);
  },
};

/** Every workload, in the order they run. */
export const WORKLOADS: readonly Workload[] = [
  hello,
  fanOut5,
  sequential5,
  sequential50,
  timerHeavy,
  continueAsNewChain,
  queueBurst,
];

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
