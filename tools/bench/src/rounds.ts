import { slotsText, type RuntimeName, type Slots } from './options.js';
import type { CellResult } from './cell-result.js';

/** One workload, slot setting and runtime over every round of a run. */
export interface RoundsSummary {
  readonly workload: string;
  readonly slots: Slots;
  readonly runtime: RuntimeName;
  readonly rounds: number;
  readonly medianOrchestrationsPerSecond: number;
  readonly minOrchestrationsPerSecond: number;
  readonly maxOrchestrationsPerSecond: number;
  readonly medianP50Ms: number;
  readonly medianMachineCpuMsPerOrchestration: number;
  /** For duro: the median of each round's duro/Rust ratio; `null` without Rust cells. */
  readonly medianDuroToRust: number | null;
}

/** The middle value, or the mean of the two middle ones; NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/** A workload at a slot setting, such as `fan-out-5 2:2`: how rounds are grouped and charted. */
export const settingLabel = (setting: {
  readonly workload: string;
  readonly slots: Slots;
}): string => `${setting.workload} ${slotsText(setting.slots)}`;

/**
 * The duro cell's orchestrations/s over the Rust cell's of the same workload, slots and round
 * (the two ran back to back); `null` when the round has no pair.
 */
export function duroToRustRatio(cells: readonly CellResult[], cell: CellResult): number | null {
  const find = (runtime: RuntimeName): CellResult | undefined =>
    cells.find(
      (c) =>
        c.runtime === runtime && c.round === cell.round && settingLabel(c) === settingLabel(cell),
    );
  const duro = find('duro');
  const rust = find('rust');
  if (duro === undefined || rust === undefined) return null;
  return duro.figures.orchestrationsPerSecond / rust.figures.orchestrationsPerSecond;
}

/** Groups the cells by workload, slots and runtime, in the order they first ran. */
export function summariseRounds(cells: readonly CellResult[]): RoundsSummary[] {
  const groups = new Map<string, CellResult[]>();
  for (const cell of cells) {
    const key = `${settingLabel(cell)} ${cell.runtime}`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [CellResult, ...CellResult[]];
    const throughputs = group.map((c) => c.figures.orchestrationsPerSecond);
    const ratios =
      first.runtime === 'duro'
        ? group.flatMap((c) => {
            const ratio = duroToRustRatio(cells, c);
            return ratio === null ? [] : [ratio];
          })
        : [];
    return {
      workload: first.workload,
      slots: first.slots,
      runtime: first.runtime,
      rounds: group.length,
      medianOrchestrationsPerSecond: median(throughputs),
      minOrchestrationsPerSecond: Math.min(...throughputs),
      maxOrchestrationsPerSecond: Math.max(...throughputs),
      medianP50Ms: median(group.map((c) => c.figures.p50Ms)),
      medianMachineCpuMsPerOrchestration: median(
        group.map((c) => c.figures.machineCpuMsPerOrchestration),
      ),
      medianDuroToRust: ratios.length === 0 ? null : median(ratios),
    };
  });
}
