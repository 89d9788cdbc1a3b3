import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { MemoryBreakdown } from './memory.js';
import type { WorkerConfig } from './runtime-config.js';
import type { StageMark } from './stage-times.js';

/** What a runtime process is started with, as JSON on its command line. */
export interface RuntimeProcessSpec {
  readonly url: string;
  readonly schema: string;
  readonly config: WorkerConfig;
  /** Time the stages of duro instances. */
  readonly stages: boolean;
}

/** An instance whose final turn committed in a runtime process. */
export interface EndedInstance {
  readonly instance: string;
  /** When the commit returned, ms since the Unix epoch (the clock all the bench's processes share). */
  readonly finishedAtMs: number;
  /** The failure of an instance that failed; null when it completed. */
  readonly failure: string | null;
}

/** What a runtime process tells of itself when it stops. */
export interface RuntimeProcessReport {
  /** CPU time (user and system) from the moment it was ready until it was asked to stop, ms. */
  readonly cpuMs: number;
  /** Where its memory was when it was asked to stop, its peak RSS included. */
  readonly memory: MemoryBreakdown;
  readonly activityAcks: number;
  /** Statements it sent from ready to stop, by label (duro only). */
  readonly statements?: Readonly<Record<string, number>>;
  /** Its stage marks (duro with `--stages`). */
  readonly stageMarks?: Readonly<Record<string, readonly StageMark[]>>;
}

/** The messages between the bench and a runtime process. */
export type FromRuntimeProcess =
  | { readonly type: 'ready' }
  | { readonly type: 'ended'; readonly ends: readonly EndedInstance[] }
  | { readonly type: 'stopped'; readonly report: RuntimeProcessReport }
  | { readonly type: 'failed'; readonly message: string };
export type ToRuntimeProcess = { readonly type: 'stop' };

const MAIN = fileURLToPath(new URL('./runtime-process-main.js', import.meta.url));

/**
 * A runtime (duro or Rust) serving the bench's workloads in a child process of its own, so its
 * CPU and memory are its own, and several of them can share one database.
 */
export class RuntimeProcess {
  private stopped: ((report: RuntimeProcessReport) => void) | null = null;

  private constructor(private readonly child: ChildProcess) {}

  /**
   * Starts a runtime process (Node.js with `nodeArgs`) and resolves once it serves; `ended` hears of the instances it
   * finishes, `crashed` of its death before it was stopped.
   * @throws when the process fails to start its runtime.
   */
  static start(
    spec: RuntimeProcessSpec,
    nodeArgs: readonly string[],
    ended: (ends: readonly EndedInstance[]) => void,
    crashed: (error: Error) => void,
  ): Promise<RuntimeProcess> {
    const child = fork(MAIN, [JSON.stringify(spec)], {
      stdio: 'inherit',
      execArgv: [...nodeArgs],
    });
    const process = new RuntimeProcess(child);
    return new Promise((resolve, reject) => {
      let ready = false;
      child.on('message', (message: FromRuntimeProcess) => {
        if (message.type === 'ready') {
          ready = true;
          resolve(process);
        } else if (message.type === 'ended') ended(message.ends);
        else if (message.type === 'stopped') process.stopped?.(message.report);
        else if (ready) crashed(new Error(`a runtime process failed: ${message.message}`));
        else reject(new Error(`a runtime process could not start: ${message.message}`));
      });
      child.on('exit', (code, signal) => {
        if (process.stopped !== null) return;
        const error = new Error(`a runtime process exited (code ${code}, signal ${signal})`);
        if (ready) crashed(error);
        else reject(error);
      });
    });
  }

  /** Asks the process to stop its runtime and resolves with its report once it has exited. */
  async stop(): Promise<RuntimeProcessReport> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const report = new Promise<RuntimeProcessReport>((resolve) => {
      this.stopped = resolve;
    });
    const stop: ToRuntimeProcess = { type: 'stop' };
    this.child.send(stop);
    const [result] = await Promise.all([report, exited]);
    return result;
  }
}
