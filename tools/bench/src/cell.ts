import { PostgresProvider } from '@duro/provider-postgres';
import { connectBenchClient } from './bench-client.js';
import type { CellPlan } from './cell-plan.js';
import { processTreeCpuMs, startMachineMeter, startProcessMeter } from './cpu-meter.js';
import type { BenchDatabase } from './database.js';
import { keepInFlight } from './keep-in-flight.js';
import {
  RuntimeProcess,
  type EndedInstance,
  type RuntimeProcessReport,
} from './runtime-process.js';
import type { CellSamples, InstanceTiming } from './samples.js';
import { epochNowMs, StageTimes } from './stage-times.js';

/** How long one instance may run before the cell fails, ms. */
const INSTANCE_TIMEOUT_MS = 120_000;

/** The id of the cell's `index`th instance, warm-up ones first. */
const instanceName = (plan: CellPlan, index: number): string => `${plan.workload.name}-${index}`;

/** Waits for the ends of instances that runtime processes report. */
class Endings {
  private readonly waiting = new Map<string, (end: EndedInstance) => void>();
  private failure: Error | null = null;
  private readonly failed = new Set<(error: Error) => void>();

  /** Resolves with the instance's end; call it before starting the instance. */
  endOf(instance: string): Promise<EndedInstance> {
    return new Promise((resolve, reject) => {
      if (this.failure !== null) {
        reject(this.failure);
        return;
      }
      const timer = setTimeout(() => {
        this.waiting.delete(instance);
        reject(new Error(`${instance} did not finish within ${INSTANCE_TIMEOUT_MS} ms`));
      }, INSTANCE_TIMEOUT_MS);
      const fail = (error: Error): void => {
        clearTimeout(timer);
        reject(error);
      };
      this.failed.add(fail);
      this.waiting.set(instance, (end) => {
        clearTimeout(timer);
        this.failed.delete(fail);
        if (end.failure === null) resolve(end);
        else reject(new Error(`instance ${instance} failed: ${end.failure}`));
      });
    });
  }

  ended = (ends: readonly EndedInstance[]): void => {
    for (const end of ends) {
      const waiter = this.waiting.get(end.instance);
      this.waiting.delete(end.instance);
      waiter?.(end);
    }
  };

  crashed = (error: Error): void => {
    this.failure = error;
    for (const fail of this.failed) fail(error);
  };
}

/** Creates and migrates the plan's schema the way its runtime's provider does. */
export async function prepareSchema(url: string, db: BenchDatabase, plan: CellPlan): Promise<void> {
  await db.dropSchema(plan.schema);
  if (plan.config.kind === 'rust') {
    const { migrateWithDuroxidePg } = await import('@duro/native');
    await migrateWithDuroxidePg(url, plan.schema);
  } else await (await PostgresProvider.connectWithSchema(url, plan.schema)).close();
  await db.queueFutureTimers(plan.schema, plan.futureTimers);
}

/**
 * Runs one cell: the plan's runtime processes serve a fresh schema, and this process, as the
 * runtime's client, keeps `inFlight` instances running until all have completed. CPU is counted
 * per process (the runtime processes, this client, the server) from the moment every runtime
 * serves until the last instance completed; commits from before the first runtime process
 * connects until the last one closed its connections.
 */
export async function runCell(
  url: string,
  db: BenchDatabase,
  plan: CellPlan,
): Promise<CellSamples> {
  await prepareSchema(url, db, plan);
  const server = await db.serverProcessId();
  const before = await db.transactionCounts();
  const endings = new Endings();
  const stages = plan.stages && plan.config.kind === 'duro' ? new StageTimes() : null;
  const spec = { url, schema: plan.schema, config: plan.config, stages: stages !== null };
  const runtimes = await Promise.all(
    Array.from({ length: plan.processes }, () =>
      RuntimeProcess.start(spec, plan.nodeArgs, endings.ended, endings.crashed),
    ),
  );
  const client = await connectBenchClient(plan.runtime, url, plan.schema, plan.workload, stages);
  let timings: InstanceTiming[];
  let reports: RuntimeProcessReport[];
  const machineSpent = startMachineMeter();
  const clientSpent = startProcessMeter();
  const serverAtStart = server === null ? Number.NaN : processTreeCpuMs(server);
  let cpu: Pick<CellSamples, 'machine' | 'clientCpuMs' | 'serverCpuMs'>;
  try {
    timings = await keepInFlight(plan.warmup + plan.instances, plan.inFlight, async (index) => {
      const instance = instanceName(plan, index);
      const ended = endings.endOf(instance);
      const startedMs = epochNowMs();
      await client.start(instance);
      return { startedMs, finishedMs: (await ended).finishedAtMs };
    });
  } finally {
    cpu = {
      machine: machineSpent(),
      clientCpuMs: clientSpent(),
      serverCpuMs: server === null ? Number.NaN : processTreeCpuMs(server) - serverAtStart,
    };
    reports = await Promise.all(runtimes.map((runtime) => runtime.stop()));
    await client.close();
  }
  const after = await db.transactionCounts();
  await db.dropSchema(plan.schema);
  for (const report of reports) stages?.addMarks(report.stageMarks ?? {});
  const measured = Array.from({ length: plan.instances }, (_, index) =>
    instanceName(plan, plan.warmup + index),
  );
  return {
    timings,
    activityAcks: reports.reduce((sum, report) => sum + report.activityAcks, 0),
    commits: after.commits - before.commits,
    rollbacks: after.rollbacks - before.rollbacks,
    ...cpu,
    runtimeCpuMs: reports.reduce((sum, report) => sum + report.cpuMs, 0),
    memory: reports
      .map((report) => report.memory)
      .reduce((largest, memory) => (memory.peakRssMiB > largest.peakRssMiB ? memory : largest)),
    ...statementsOf(reports, timings.length),
    ...(stages === null ? {} : { stages: stages.steps(measured) }),
  };
}

/** The runtime processes' statements per orchestration, when they counted them (duro). */
function statementsOf(
  reports: readonly RuntimeProcessReport[],
  orchestrations: number,
): Pick<CellSamples, 'statementsPerOrchestration'> {
  if (reports.every((report) => report.statements === undefined)) return {};
  const totals: Record<string, number> = {};
  for (const report of reports) {
    for (const [label, count] of Object.entries(report.statements ?? {})) {
      totals[label] = (totals[label] ?? 0) + count / orchestrations;
    }
  }
  const sorted = Object.entries(totals).sort((a, b) => b[1] - a[1]);
  return { statementsPerOrchestration: Object.fromEntries(sorted) };
}
