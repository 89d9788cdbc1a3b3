import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';
import type { EmbeddedPostgresServer } from '@duro/test-postgres';
import type { FaultOutcome, FreezeWindow } from '../chaos/chaos-context.js';
import { planFaults, runChaos } from '../chaos/chaos-schedule.js';
import { checkInvariants, type RunEvidence } from '../invariants/check-invariants.js';
import type { Interval } from '../invariants/interval-union.js';
import type { QueueLeftovers } from '../invariants/queues-drained.js';
import { AuditLog } from '../observe/audit-log.js';
import type { ProgressDisplay } from '../report/progress.js';
import type { RunReport } from '../report/run-report.js';
import type { SwarmConfig } from '../swarm-config.js';
import { ClientLoad, type RootSession } from '../workload/client-load.js';
import { SeededRandom } from '../workload/seeded-random.js';
import type { SessionKnobs } from '../workload/session-input.js';
import { flattenPlans, planSessions, type SessionPlan } from '../workload/session-plan.js';
import type { WorkerLaunch } from './ipc-messages.js';
import { SwarmDatabase } from './swarm-database.js';
import { trackProgress } from './progress-tracker.js';
import { WorkerFleet } from './worker-fleet.js';

/** How one run is set up, beyond its {@link SwarmConfig}. */
export interface CoordinatorOptions {
  readonly config: SwarmConfig;
  readonly preset: string;
  readonly databaseUrl: string;
  /** How the database was obtained, for the report. */
  readonly databaseRoute: string;
  /** The run's own server, which `server-restart` faults crash and start again. */
  readonly server: EmbeddedPostgresServer | undefined;
  /** Prefix of the run's schemas: `<prefix>_main`, `<prefix>_second`, `<prefix>_audit`. */
  readonly schemaPrefix: string;
  readonly logDir: string;
  /** Keep the schemas even when the run passed. */
  readonly keepSchemas: boolean;
  /** Make the last main-schema worker the Rust duroxide runtime of `@duro/native`. */
  readonly mixedFleet: boolean;
  readonly progress: ProgressDisplay;
}

/** A schema of the run with its planned sessions and its client. */
interface SchemaRun {
  readonly schema: string;
  readonly workers: number;
  readonly roots: readonly SessionPlan[];
  readonly all: readonly SessionPlan[];
  readonly provider: PostgresProvider;
  readonly client: Client;
}

function knobsOf(config: SwarmConfig): SessionKnobs {
  const { workload } = config;
  return {
    seed: config.seed,
    turnMs: workload.turnMs,
    longTurnShare: workload.longTurnShare,
    longTurnMs: workload.longTurnMs,
    continueAsNewEvery: Math.min(Math.max(workload.continueAsNewEvery, 1), 10),
    idleTimerMs: workload.idleTimerMs,
    longTimerShare: workload.longTimerShare,
    longTimerMs: workload.longTimerMs,
  };
}

async function openSchemas(options: CoordinatorOptions, db: SwarmDatabase): Promise<SchemaRun[]> {
  const { config, schemaPrefix, databaseUrl } = options;
  const wanted = [
    { schema: `${schemaPrefix}_main`, workers: config.workers, sessions: config.sessions },
    {
      schema: `${schemaPrefix}_second`,
      workers: config.secondSchemaWorkers,
      sessions: config.secondSchemaSessions,
    },
  ].filter((entry) => entry.workers > 0 && entry.sessions > 0);
  const runs: SchemaRun[] = [];
  for (const { schema, workers, sessions } of wanted) {
    await db.dropSchema(schema);
    const provider = await PostgresProvider.connectWithSchema(databaseUrl, schema, {
      applicationName: 'pilot-coordinator',
      poolSize: 8,
    });
    // Both schemas use the same instance ids, as parallel test fleets do in one database.
    const roots = planSessions(config, sessions);
    runs.push({
      schema,
      workers,
      roots,
      all: flattenPlans(roots),
      provider,
      client: new Client(provider),
    });
  }
  return runs;
}

function launchesOf(
  options: CoordinatorOptions,
  runs: readonly SchemaRun[],
  auditSchema: string,
): WorkerLaunch[] {
  const mainSchema = `${options.schemaPrefix}_main`;
  return runs.flatMap((run) =>
    Array.from({ length: run.workers }, (_, index) => {
      const rust = options.mixedFleet && run.schema === mainSchema && index === run.workers - 1;
      return {
        nodeId: `${run.schema.slice(options.schemaPrefix.length + 1)}-w${index}${rust ? '-rust' : ''}`,
        engine: rust ? 'rust' : 'duro',
        databaseUrl: options.databaseUrl,
        schema: run.schema,
        auditSchema,
        runtime: options.config.runtime,
      } satisfies WorkerLaunch;
    }),
  );
}

/** Waits until `done()` holds, polling; false when `timeoutMs` passed first. */
async function until(
  done: () => Promise<boolean>,
  timeoutMs: number,
  pollMs = 500,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > deadline) return false;
    await sleep(pollMs);
  }
}

/**
 * Runs one swarm from start to report: fresh schemas, the worker fleet, the sessions and their
 * clients, chaos during the load window, then the wait for every instance and queue to settle,
 * the invariants, and the report. Schemas are dropped afterwards when the run passed.
 */
export async function runSwarm(options: CoordinatorOptions): Promise<RunReport> {
  const { config, progress } = options;
  const startedAtMs = Date.now();
  const auditSchema = `${options.schemaPrefix}_audit`;
  const db = new SwarmDatabase(options.databaseUrl, [
    `${options.schemaPrefix}_main`,
    `${options.schemaPrefix}_second`,
    auditSchema,
  ]);
  const audit = AuditLog.open(options.databaseUrl, auditSchema, 'pilot-coordinator');
  await audit.reset();
  const runs = await openSchemas(options, db);
  const knobs = knobsOf(config);
  const roots: RootSession[] = runs.flatMap((run) =>
    run.roots.map((plan) => ({ schema: run.schema, plan })),
  );
  const load = new ClientLoad(
    roots,
    new Map(runs.map((run) => [run.schema, run.client])),
    knobs,
    config.workload.maxBurst,
  );
  const fleet = new WorkerFleet(
    launchesOf(options, runs, auditSchema),
    options.logDir,
    config.chaos.restartDelayMs,
    {
      onContinueAsNewSoon: (schema, session) => load.burstOnContinueAsNew(schema, session),
      onRestartFailed: (nodeId, error) =>
        progress.note(`worker ${nodeId} could not be restarted: ${error.message}`),
    },
  );
  progress.note(
    `pilot-e2e: starting ${fleet.slots.length} workers on ${runs.map((run) => run.schema).join(', ')}`,
  );
  await fleet.start();

  const outcomes: FaultOutcome[] = [];
  const freezes: FreezeWindow[] = [];
  const outages: Interval[] = [];
  const instanceTotal = runs.reduce((sum, run) => sum + run.all.length, 0);
  const tracker = trackProgress({
    db,
    fleet,
    load,
    progress,
    schemas: runs.map((run) => run.schema),
    roots: roots.length,
    instances: instanceTotal,
    outcomes,
  });
  const workStartMs = Date.now();
  await load.startSessions();
  const chaosStop = new AbortController();
  const random = new SeededRandom(config.seed, 'chaos');
  const plannedFaults = planFaults(config.chaos, random);
  const chaos = runChaos(
    {
      fleet,
      admin: db.pool,
      config,
      random,
      freezes,
      server: options.server,
      outages,
      favoured: options.mixedFleet ? (slot) => slot.launch.engine === 'rust' : undefined,
    },
    plannedFaults,
    workStartMs,
    config.loadDurationMs,
    chaosStop.signal,
    (outcome) => {
      outcomes.push(outcome);
      progress.note(
        `fault ${outcome.kind} ${outcome.injected ? 'on' : 'skipped,'} ${outcome.target}: ${outcome.detail}`,
      );
    },
  );
  tracker.setPhase('load');
  await load.run(config.loadDurationMs);
  tracker.setPhase('waiting for the last faults');
  await chaos;
  chaosStop.abort();

  tracker.setPhase('settling');
  await until(
    async () => (await tracker.finishedInstances()) >= instanceTotal,
    config.settleTimeoutMs,
  );
  const workloadMs = Date.now() - workStartMs;
  tracker.setPhase('draining queues');
  // A timer that lost its race stays queued until it is due; give the longest one time to fire.
  const queueGraceMs = config.workload.idleTimerMs + config.workload.longTimerMs + 10_000;
  await until(async () => {
    const rows = await Promise.all(runs.map((run) => db.queueRows(run.schema)));
    return rows.every((row) => row.orchestrator === 0 && row.worker === 0);
  }, queueGraceMs);

  const queues: QueueLeftovers[] = [];
  for (const run of runs) {
    const depths = await run.provider.getQueueDepths();
    const rows = await db.queueRows(run.schema);
    queues.push({
      schema: run.schema,
      orchestratorDepth: depths.orchestratorQueue,
      workerDepth: depths.workerQueue,
      orchestratorRows: rows.orchestrator,
      workerRows: rows.worker,
    });
  }
  const histories = await Promise.all(runs.map((run) => db.historySizes(run.schema)));
  const instances = new Map(
    await Promise.all(
      runs.map(async (run) => [run.schema, await db.instances(run.schema)] as const),
    ),
  );
  tracker.setPhase('stopping workers');
  await fleet.stop(config.runtime.shutdownTimeoutMs + 5_000);
  tracker.stop();
  const totals = fleet.totals();
  const clientFigures = load.figures();
  const evidence: RunEvidence = {
    plans: new Map(runs.map((run) => [run.schema, run.all])),
    instances,
    clientSent: load.sentPerSession(),
    clientResent: load.resentPerSession(),
    failedSends: clientFigures.failedSends,
    audit: await audit.readTrail(),
    unobserved: totals.unobserved,
    runtimeCounts: totals.runtimeCounts,
    lives: fleet.lives(),
    freezes,
    outages,
    connectionDrops: outcomes
      .filter((outcome) => outcome.kind === 'connection-drop' && outcome.injected)
      .map((outcome) => ({ worker: outcome.target, atMs: outcome.atMs })),
    metrics: totals.metrics,
    queues,
    history: {
      largest: histories.flatMap((history) => history.largest),
      executions: histories.reduce((sum, history) => sum + history.executions, 0),
    },
  };
  const invariants = checkInvariants(evidence, config);
  const passed = invariants.every((result) => result.passed);
  const keptSchemas = options.keepSchemas || !passed;
  const seconds = Math.max(workloadMs, 1) / 1000;
  const injected: Record<string, number> = {};
  for (const outcome of outcomes)
    if (outcome.injected) injected[outcome.kind] = (injected[outcome.kind] ?? 0) + 1;
  const report: RunReport = {
    passed,
    preset: options.preset,
    config,
    database: {
      route: options.databaseRoute,
      serverVersion: await db.serverVersion(),
      durability: await db.durability(),
    },
    startedAt: new Date(startedAtMs).toISOString(),
    durationMs: Date.now() - startedAtMs,
    workloadMs,
    schemas: runs.map((run) => run.schema),
    sessions: {
      roots: roots.length,
      instances: instanceTotal,
      completed: tracker.completedInstances(),
    },
    clients: clientFigures,
    throughput: {
      orchestrationTurnsPerSecond: (totals.metrics?.orchTurns ?? 0) / seconds,
      activitiesPerSecond: (totals.metrics?.activitySuccess ?? 0) / seconds,
      messagesPerSecond: clientFigures.messagesSent / seconds,
      instancesCompletedPerSecond: tracker.completedInstances() / seconds,
    },
    fleet: {
      workers: fleet.slots.length,
      restarts: totals.restarts,
      unexpectedExits: totals.unexpectedExits,
      metrics: totals.metrics,
      engines: totals.engines,
      sharedInstances: totals.sharedInstances,
    },
    leases: totals.leases,
    faults: { planned: plannedFaults.length, injected, outcomes },
    invariants,
    logDir: options.logDir,
    keptSchemas,
  };
  for (const run of runs) await run.provider.close();
  if (!keptSchemas) {
    for (const run of runs) await db.dropSchema(run.schema);
    await audit.drop();
  }
  await audit.close();
  await db.close();
  return report;
}
