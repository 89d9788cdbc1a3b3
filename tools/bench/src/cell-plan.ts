import type { Slots } from './options.js';
import type { Workload } from './workloads.js';

/** One cell of the benchmark: a workload at one slot setting, run by one runtime. */
export interface CellPlan {
  readonly workload: Workload;
  readonly slots: Slots;
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
}
