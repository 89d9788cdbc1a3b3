import type { RuntimeName, Slots } from './options.js';
import type { CellFigures } from './samples.js';
import type { StageStep } from './stage-times.js';

/** One measured cell: a workload, slots and runtime, in one round. */
export interface CellResult {
  readonly workload: string;
  readonly slots: Slots;
  readonly runtime: RuntimeName;
  /** Which pass over the cells this was, from 1 (`--rounds`). */
  readonly round: number;
  readonly inFlight: number;
  readonly figures: CellFigures;
  /** Statements sent per orchestration, by what they do; measured for duro only. */
  readonly statementsPerOrchestration?: Readonly<Record<string, number>>;
  /** Where the measured instances' time went, with `--stages`; duro only. */
  readonly stages?: readonly StageStep[];
}
