import type { Caps, RuntimeName } from './options.js';
import type { Guarantees } from './runtime-config.js';
import type { CellFigures } from './samples.js';
import type { StageStep } from './stage-times.js';

/** One measured cell: a workload at a setting, run by one runtime in one round. */
export interface CellResult {
  readonly workload: string;
  /** What each runtime process may run at once. */
  readonly caps: Caps;
  /** Runtime processes sharing the schema. */
  readonly processes: number;
  readonly runtime: RuntimeName;
  /** Which pass over the cells this was, from 1 (`--rounds`). */
  readonly round: number;
  readonly inFlight: number;
  /** What the runtime promised in this cell; only cells that promise the same are compared. */
  readonly guarantees: Guarantees;
  /** The runtime's settings that are choices, not promises (batch sizes, poll, pool). */
  readonly settings: string;
  /** The most orch/s the workload's sleeps allow at these caps; null when it does not sleep. */
  readonly sleepCeiling: number | null;
  readonly figures: CellFigures;
  /** Statements sent per orchestration, by what they do; measured for duro only. */
  readonly statementsPerOrchestration?: Readonly<Record<string, number>>;
  /** Where the measured instances' time went, with `--stages`; duro only. */
  readonly stages?: readonly StageStep[];
}
