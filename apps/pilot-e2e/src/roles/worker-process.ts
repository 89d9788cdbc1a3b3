#!/usr/bin/env node
/**
 * One worker of the swarm: a runtime (duro's, or the Rust one for a mixed fleet) on a
 * `PostgresProvider` wrapped to observe leases and acknowledgements, running the session
 * workload until the coordinator says `drain` or the process is killed. Started by the
 * coordinator with its launch settings in the environment; reports to it over the IPC channel.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresProvider } from '@duro/provider-postgres';
import { AuditLog } from '../observe/audit-log.js';
import { LeaseStats } from '../observe/lease-stats.js';
import { observeProvider } from '../observe/observed-provider.js';
import {
  WORKER_LAUNCH_ENV,
  workerApplicationName,
  type CoordinatorMessage,
  type WorkerLaunch,
  type WorkerMessage,
  type WorkerStats,
} from './ipc-messages.js';
import { dropFirstSessionClaim, expireFirstClaim, testFaultOf } from './test-faults.js';
import type { StartEngine } from './worker-engine.js';

const STATS_INTERVAL_MS = 250;
const CONNECT_DEADLINE_MS = 60_000;
const CONNECT_RETRY_MS = 250;

function send(message: WorkerMessage): void {
  process.send?.(message);
}

/** The engine's module is loaded on demand: a duro worker never needs `@duro/native`. */
async function engineStarter(launch: WorkerLaunch): Promise<StartEngine> {
  if (launch.engine === 'rust') return (await import('./rust-engine.js')).startRustEngine;
  return (await import('./duro-engine.js')).startDuroEngine;
}

const launchText = process.env[WORKER_LAUNCH_ENV];
if (launchText === undefined || process.send === undefined) {
  console.error(`worker-process: start it from the coordinator (${WORKER_LAUNCH_ENV} and IPC)`);
  process.exit(2);
}
const launch = JSON.parse(launchText) as WorkerLaunch;
const { runtime: options } = launch;
// An orphaned worker (its coordinator died) must not keep running.
process.on('disconnect', () => process.exit(1));

const audit = AuditLog.open(launch.databaseUrl, launch.auditSchema, `pilot-audit-${launch.nodeId}`);
const leases = new LeaseStats();
let ackKillArmed = false;
let newInstances = new Set<string>();

/**
 * Connects the provider, trying again while the server cannot be reached (a worker restarted
 * while PostgreSQL restarts waits for it, as a pod's start would).
 */
async function connectProvider(): Promise<PostgresProvider> {
  const deadline = Date.now() + CONNECT_DEADLINE_MS;
  for (;;) {
    try {
      return await PostgresProvider.connectWithSchema(launch.databaseUrl, launch.schema, {
        poolSize: options.poolSize,
        idlePollIntervalMs: options.idlePollIntervalMs,
        applicationName: workerApplicationName(launch.nodeId),
      });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(CONNECT_RETRY_MS);
    }
  }
}

const testFault = testFaultOf(process.env);
const provider = await connectProvider();
const observed = observeProvider(
  testFault === 'expired-lease' ? expireFirstClaim(provider) : provider,
  {
    schema: provider.schema,
    worker: launch.nodeId,
    life: process.pid,
    audit,
    stats: leases,
    onOrchestrationFetched: (instance) => newInstances.add(instance),
    onAckSent: (queue) => {
      if (!ackKillArmed) return;
      send({ type: 'dying-mid-ack', queue });
      // Let the acknowledgement reach the socket, then die before (or while) it commits.
      setTimeout(() => process.kill(process.pid, 'SIGKILL'), Math.floor(Math.random() * 3));
    },
  },
);
const engine = await (
  await engineStarter(launch)
)(
  testFault === 'drop-session-claim' ? dropFirstSessionClaim(observed.provider) : observed.provider,
  launch,
  (session) => send({ type: 'continue-as-new-soon', session }),
);

async function stats(): Promise<WorkerStats> {
  const { metrics, turnsInFlight } = await engine.stats();
  const instances = [...newInstances];
  newInstances = new Set();
  return {
    metrics,
    leases: leases.snapshot(),
    turnsInFlight,
    newInstances: instances,
    unobserved: observed.unobserved(),
  };
}

const ticker = setInterval(() => {
  void stats().then((current) => send({ type: 'stats', stats: current }));
}, STATS_INTERVAL_MS);
let draining = false;
async function drain(): Promise<void> {
  if (draining) return;
  draining = true;
  clearInterval(ticker);
  await engine.shutdown(options.shutdownTimeoutMs);
  await observed.close();
  await provider.close();
  await audit.close();
  send({ type: 'drained', stats: await stats() });
  // Give the IPC channel a moment to flush the last message.
  await sleep(20);
  process.exit(0);
}

process.on('message', (message: CoordinatorMessage) => {
  switch (message.type) {
    case 'drain':
      void drain();
      break;
    case 'arm-ack-kill':
      ackKillArmed = true;
      break;
    case 'disarm-ack-kill':
      ackKillArmed = false;
      break;
  }
});
process.on('SIGTERM', () => void drain());

send({ type: 'ready' });
