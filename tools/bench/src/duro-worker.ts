import { Runtime } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';
import { CompletionTracker, type InstanceEnded } from './completion-tracker.js';
import type { WorkerConfig } from './runtime-config.js';
import { StageTimes, type StageMark } from './stage-times.js';
import { registerWorkloads } from './workloads.js';

/** A duro runtime serving every bench workload on a migrated schema. */
export class DuroBenchWorker {
  private constructor(
    private readonly provider: PostgresProvider,
    private readonly tracker: CompletionTracker,
    private readonly runtime: Runtime,
    private readonly stages: StageTimes | null,
  ) {}

  /**
   * Starts the runtime on `schema` (already migrated) with `config`; `ended` hears of every
   * instance whose final turn committed. With `stages`, the provider calls that move an instance
   * on are timed (see {@link StageTimes}).
   */
  static async start(
    url: string,
    schema: string,
    config: Extract<WorkerConfig, { kind: 'duro' }>,
    ended: InstanceEnded,
    stages = false,
  ): Promise<DuroBenchWorker> {
    const provider = await PostgresProvider.connectWithSchema(url, schema, {
      ...config.providerOptions,
      migrate: false,
    });
    const tracker = new CompletionTracker(provider, ended);
    const stageTimes = stages ? new StageTimes() : null;
    const runtime = new Runtime(stageTimes?.watch(tracker.provider) ?? tracker.provider, {
      ...config.runtimeOptions,
      logLevel: 'silent',
    });
    registerWorkloads(runtime);
    await runtime.start();
    return new DuroBenchWorker(provider, tracker, runtime, stageTimes);
  }

  /** Activities acknowledged so far. */
  get activityAcks(): number {
    return this.tracker.activityAcks;
  }

  /** The stage marks taken so far, when stages are timed. */
  stageMarks(): Record<string, StageMark[]> | undefined {
    return this.stages?.marks();
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
