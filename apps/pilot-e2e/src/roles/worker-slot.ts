import { fork, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { MetricsSnapshot } from '@duro/core';
import type { WorkerLife } from '../invariants/claim-holds.js';
import type { AuditQueue } from '../observe/audit-records.js';
import { mergeLeaseFigures, type LeaseFigures } from '../observe/lease-stats.js';
import { sumMetrics } from './metrics-sum.js';
import {
  WORKER_LAUNCH_ENV,
  type CoordinatorMessage,
  type WorkerLaunch,
  type WorkerMessage,
  type WorkerStats,
} from './ipc-messages.js';

/** Where a slot's worker is in its life. */
export type SlotState = 'starting' | 'running' | 'frozen' | 'draining' | 'down';

const WORKER_ENTRY = new URL('./worker-process.js', import.meta.url);
const READY_TIMEOUT_MS = 60_000;

/**
 * One place in the fleet: a worker process with a stable node id that is started again after
 * it dies, plus what all its lives have reported. Output of every life is appended to one log
 * file per slot.
 */
export class WorkerSlot {
  state: SlotState = 'down';
  /** Processes started for this slot. */
  lives = 0;
  /** Instances whose orchestration items any life of this slot fetched. */
  readonly instances = new Set<string>();
  private child: ChildProcess | null = null;
  private current: WorkerStats | null = null;
  private finishedMetrics: MetricsSnapshot | null = null;
  private finishedLeases: Record<AuditQueue, LeaseFigures[]> = { orchestrator: [], worker: [] };
  private finishedUnobserved = 0;
  private readonly lifeRecords: { -readonly [K in keyof WorkerLife]: WorkerLife[K] }[] = [];
  private readonly log: WriteStream;
  private expectedExit = false;

  constructor(
    readonly launch: WorkerLaunch,
    logDir: string,
    private readonly onMessage: (slot: WorkerSlot, message: WorkerMessage) => void,
    private readonly onUnexpectedExit: (slot: WorkerSlot, signal: string | null) => void,
  ) {
    this.log = createWriteStream(join(logDir, `${launch.nodeId}.log`), { flags: 'a' });
  }

  get nodeId(): string {
    return this.launch.nodeId;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Turns the current life reports in flight. */
  get turnsInFlight(): number {
    return this.current?.turnsInFlight ?? 0;
  }

  /** Starts a new process and resolves once its runtime runs. */
  start(): Promise<void> {
    this.lives += 1;
    this.state = 'starting';
    this.expectedExit = false;
    this.current = null;
    const child = fork(WORKER_ENTRY, [], {
      env: { ...process.env, [WORKER_LAUNCH_ENV]: JSON.stringify(this.launch) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    const record = {
      worker: this.nodeId,
      pid: child.pid ?? -1,
      startedAtMs: Date.now(),
      endedAtMs: null as number | null,
    };
    this.lifeRecords.push(record);
    this.log.write(
      `--- life ${this.lives} (pid ${child.pid ?? '?'}) at ${new Date().toISOString()}\n`,
    );
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`worker ${this.nodeId} did not start in ${READY_TIMEOUT_MS} ms`)),
        READY_TIMEOUT_MS,
      );
      child.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          this.state = 'running';
          resolve();
        }
        if (message.type === 'stats' || message.type === 'drained') {
          this.current = message.stats;
          for (const instance of message.stats.newInstances) this.instances.add(instance);
        }
        this.onMessage(this, message);
      });
      child.on('exit', (code, signal) => {
        record.endedAtMs = Date.now();
        clearTimeout(timer);
        this.closeLife();
        this.log.write(`--- exit code ${code ?? '-'} signal ${signal ?? '-'}\n`);
        const wasStarting = this.state === 'starting';
        this.state = 'down';
        if (this.child === child) this.child = null;
        if (wasStarting) reject(new Error(`worker ${this.nodeId} exited while starting`));
        if (!this.expectedExit) this.onUnexpectedExit(this, signal);
      });
    });
  }

  /** Sends a signal to the current process (`SIGKILL`, `SIGSTOP`, `SIGCONT`). */
  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  send(message: CoordinatorMessage): void {
    if (this.child?.connected === true) this.child.send(message);
  }

  /** Drains the runtime gracefully and waits for the process to exit. */
  async drain(timeoutMs: number): Promise<void> {
    const child = this.child;
    if (child === null || child.exitCode !== null) return;
    this.expectedExit = true;
    this.state = 'draining';
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.send({ type: 'drain' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }

  /** Every life this slot has had, the current one included. */
  lifeHistory(): WorkerLife[] {
    return this.lifeRecords.map((life) => ({ ...life }));
  }

  /** Everything this slot's lives reported, the current one included. */
  totals(): {
    metrics: MetricsSnapshot | null;
    leases: Record<AuditQueue, LeaseFigures>;
    unobserved: number;
  } {
    const lives = this.current === null ? [] : [this.current];
    const metrics = sumMetrics([this.finishedMetrics, ...lives.map((life) => life.metrics)]);
    const leases = (queue: AuditQueue): LeaseFigures =>
      mergeLeaseFigures([
        ...this.finishedLeases[queue],
        ...lives.map((life) => life.leases[queue]),
      ]);
    return {
      metrics,
      leases: { orchestrator: leases('orchestrator'), worker: leases('worker') },
      unobserved: this.finishedUnobserved + (this.current?.unobserved ?? 0),
    };
  }

  /** Folds the ended life's last report into the totals. */
  private closeLife(): void {
    const life = this.current;
    if (life === null) return;
    this.finishedMetrics = sumMetrics([this.finishedMetrics, life.metrics]);
    this.finishedLeases.orchestrator.push(life.leases.orchestrator);
    this.finishedLeases.worker.push(life.leases.worker);
    this.finishedUnobserved += life.unobserved;
    this.current = null;
  }

  /** Closes the slot's log file. */
  close(): void {
    this.log.end();
  }
}
