import type { Caps, RuntimeName } from './options.js';
import type { WorkerConfig } from './runtime-config.js';
import type { Workload } from './workloads.js';

/** One cell of the benchmark: a workload at one setting, run by one runtime. */
export interface CellPlan {
  readonly workload: Workload;
  /** What each runtime process may run at once. */
  readonly caps: Caps;
  /** Runtime processes sharing the schema. */
  readonly processes: number;
  readonly runtime: RuntimeName;
  /** How each runtime process is configured. */
  readonly config: WorkerConfig;
  /** Measured instances. */
  readonly instances: number;
  /** Unmeasured instances before them. */
  readonly warmup: number;
  readonly inFlight: number;
  /** Future timers queued in the schema before the cell runs. */
  readonly futureTimers: number;
  /** A schema of its own, dropped before and after. */
  readonly schema: string;
  /** Whether duro cells time their instances' stages (`--stages`). */
  readonly stages: boolean;
  /** Node.js flags of the runtime processes. */
  readonly nodeArgs: readonly string[];
}
