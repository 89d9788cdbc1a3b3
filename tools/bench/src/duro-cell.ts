import { Client, Runtime, type RuntimeOptions } from '@duro/core';
import { PostgresProvider, type PostgresProviderOptions } from '@duro/provider-postgres';
import type { CellPlan } from './cell-plan.js';
import { CompletionTracker } from './completion-tracker.js';
import { startCpuMeter, type CpuSpent } from './cpu-meter.js';
import type { BenchDatabase } from './database.js';
import { keepInFlight } from './keep-in-flight.js';
import { labelledRates, QueryCounter } from './query-counter.js';
import type { CellSamples, InstanceTiming } from './samples.js';
import { StageTimes, type StageStep } from './stage-times.js';

/** A duro runtime serving one workload on a fresh schema, with a client to start instances. */
export class DuroBenchRuntime {
  private constructor(
    private readonly provider: PostgresProvider,
    private readonly tracker: CompletionTracker,
    private readonly runtime: Runtime,
    private readonly client: Client,
    private readonly plan: CellPlan,
    private readonly stages: StageTimes | null,
  ) {}

  /**
   * Drops and migrates the plan's schema, queues its future timers, and then (when `before`
   * resolves, so counters can be read with no other session open) starts the runtime.
   */
  static async start(
    url: string,
    db: BenchDatabase,
    plan: CellPlan,
    before: () => Promise<void> = async () => undefined,
    providerOptions: PostgresProviderOptions = {},
    runtimeOptions: RuntimeOptions = {},
  ): Promise<DuroBenchRuntime> {
    await db.dropSchema(plan.schema);
    const migrating = await PostgresProvider.connectWithSchema(url, plan.schema);
    await migrating.close();
    await db.queueFutureTimers(plan.schema, plan.futureTimers);
    await before();
    const provider = await PostgresProvider.connectWithSchema(url, plan.schema, {
      ...providerOptions,
      migrate: false,
    });
    const tracker = new CompletionTracker(provider);
    const stages = plan.stages ? new StageTimes() : null;
    const served = stages?.watch(tracker.provider) ?? tracker.provider;
    const runtime = new Runtime(served, {
      ...runtimeOptions,
      orchestrationConcurrency: plan.slots.orchestration,
      workerConcurrency: plan.slots.worker,
      logLevel: 'silent',
    });
    plan.workload.register(runtime);
    await runtime.start();
    return new DuroBenchRuntime(provider, tracker, runtime, new Client(served), plan, stages);
  }

  /** Activities acknowledged so far. */
  get activityAcks(): number {
    return this.tracker.activityAcks;
  }

  /** Where the given instances' time went, when the plan times stages. */
  stageSteps(instances: readonly string[]): StageStep[] | undefined {
    return this.stages?.steps(instances);
  }

  /** Starts an instance of the workload and resolves when its final turn has committed. */
  async runInstance(instance: string): Promise<InstanceTiming> {
    const done = this.tracker.completion(instance);
    const startedMs = performance.now();
    await this.client.startOrchestration(
      instance,
      this.plan.workload.orchestration,
      this.plan.workload.input,
    );
    await this.plan.workload.afterStart?.(this.client, instance);
    await done;
    return { startedMs, finishedMs: performance.now() };
  }

  /** Shuts the runtime down and closes the provider's connections. */
  async stop(): Promise<void> {
    try {
      await this.runtime.shutdown();
    } finally {
      await this.provider.close();
    }
  }
}

/** The id of the cell's `index`th instance, warm-up ones first. */
function instanceName(plan: CellPlan, index: number): string {
  return `${plan.workload.name}-${index}`;
}

/**
 * Runs one cell on duro with `PostgresProvider`, opened with `providerOptions`; the runtime
 * takes `runtimeOptions` besides the plan's slots.
 */
export async function runDuroCell(
  url: string,
  db: BenchDatabase,
  plan: CellPlan,
  providerOptions: PostgresProviderOptions = {},
  runtimeOptions: RuntimeOptions = {},
): Promise<CellSamples> {
  const counter = QueryCounter.install();
  let before = { commits: 0, rollbacks: 0 };
  let labelledBefore = new Map<string, number>();
  let cpuSpent = (): CpuSpent => ({ wallMs: 0, processMs: 0, machineMs: 0 });
  const duro = await DuroBenchRuntime.start(
    url,
    db,
    plan,
    async () => {
      before = await db.transactionCounts();
      labelledBefore = counter.labelled();
      cpuSpent = startCpuMeter();
    },
    providerOptions,
    runtimeOptions,
  );
  let timings: InstanceTiming[];
  let activityAcks: number;
  let cpu: CpuSpent;
  try {
    timings = await keepInFlight(plan.warmup + plan.instances, plan.inFlight, (index) =>
      duro.runInstance(instanceName(plan, index)),
    );
    activityAcks = duro.activityAcks;
  } finally {
    await duro.stop();
    cpu = cpuSpent();
  }
  const statements = labelledRates(labelledBefore, counter.labelled(), timings.length);
  const measured = Array.from({ length: plan.instances }, (_, index) =>
    instanceName(plan, plan.warmup + index),
  );
  const stages = duro.stageSteps(measured);
  const after = await db.transactionCounts();
  await db.dropSchema(plan.schema);
  return {
    timings,
    activityAcks,
    statementsPerOrchestration: statements,
    ...(stages === undefined ? {} : { stages }),
    commits: after.commits - before.commits,
    rollbacks: after.rollbacks - before.rollbacks,
    cpu,
  };
}
