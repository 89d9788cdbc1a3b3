import { capsText, type Caps, type RuntimeName } from './options.js';
import type { CellResult } from './cell-result.js';
import { guaranteeDifferences } from './runtime-config.js';

/** One workload, setting and runtime over every round of a run. */
export interface RoundsSummary {
  readonly workload: string;
  readonly caps: Caps;
  readonly processes: number;
  readonly runtime: RuntimeName;
  readonly rounds: number;
  readonly medianOrchestrationsPerSecond: number;
  readonly minOrchestrationsPerSecond: number;
  readonly maxOrchestrationsPerSecond: number;
  readonly medianP50Ms: number;
  readonly medianP99Ms: number;
  readonly medianTotalCpuMsPerOrchestration: number;
  readonly medianPeakRssMiB: number;
  /** The ceiling the workload's sleeps set, orch/s; null when it does not sleep. */
  readonly sleepCeiling: number | null;
  /** For duro's runtimes: the median of each round's ratio to Rust; null without a fair pair. */
  readonly medianToRust: number | null;
  /** For duro's runtimes: the median of each round's peak RSS over Rust's. */
  readonly medianRssToRust: number | null;
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

/** A workload at a setting, such as `fan-out-5 2:2 ×1`: how rounds are grouped and charted. */
export const settingLabel = (setting: {
  readonly workload: string;
  readonly caps: Caps;
  readonly processes: number;
}): string => `${setting.workload} ${capsText(setting.caps)} ×${setting.processes}`;

/** How a cell of one of duro's runtimes compares with the Rust cell of its setting and round. */
export type Comparison =
  | { readonly kind: 'ratio'; readonly ratio: number; readonly rssRatio: number }
  /** The two promise different things: no ratio, only what differs. */
  | { readonly kind: 'unequal'; readonly differences: readonly string[] };

/**
 * Compares a cell of one of duro's runtimes with the Rust cell of the same setting and round
 * (the two ran back to back): the ratio of their orch/s and of their peak RSS when they promise
 * the same, the differences when they do not; null for a Rust cell or a round without one.
 */
export function compareWithRust(cells: readonly CellResult[], cell: CellResult): Comparison | null {
  if (cell.runtime === 'rust') return null;
  const rust = cells.find(
    (c) => c.runtime === 'rust' && c.round === cell.round && settingLabel(c) === settingLabel(cell),
  );
  if (rust === undefined) return null;
  const differences = guaranteeDifferences(cell.guarantees, rust.guarantees);
  if (differences.length > 0) return { kind: 'unequal', differences };
  return {
    kind: 'ratio',
    ratio: cell.figures.orchestrationsPerSecond / rust.figures.orchestrationsPerSecond,
    rssRatio: cell.figures.peakRssMiB / rust.figures.peakRssMiB,
  };
}

/** Groups the cells by workload, setting and runtime, in the order they first ran. */
export function summariseRounds(cells: readonly CellResult[]): RoundsSummary[] {
  const groups = new Map<string, CellResult[]>();
  for (const cell of cells) {
    const key = `${settingLabel(cell)} ${cell.runtime}`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [CellResult, ...CellResult[]];
    const throughputs = group.map((c) => c.figures.orchestrationsPerSecond);
    const ratios = group.flatMap((c) => {
      const comparison = compareWithRust(cells, c);
      return comparison?.kind === 'ratio' ? [comparison] : [];
    });
    return {
      workload: first.workload,
      caps: first.caps,
      processes: first.processes,
      runtime: first.runtime,
      rounds: group.length,
      medianOrchestrationsPerSecond: median(throughputs),
      minOrchestrationsPerSecond: Math.min(...throughputs),
      maxOrchestrationsPerSecond: Math.max(...throughputs),
      medianP50Ms: median(group.map((c) => c.figures.p50Ms)),
      medianP99Ms: median(group.map((c) => c.figures.p99Ms)),
      medianTotalCpuMsPerOrchestration: median(
        group.map((c) => c.figures.totalCpuMsPerOrchestration),
      ),
      medianPeakRssMiB: median(group.map((c) => c.figures.peakRssMiB)),
      sleepCeiling: first.sleepCeiling,
      medianToRust: ratios.length === 0 ? null : median(ratios.map((r) => r.ratio)),
      medianRssToRust: ratios.length === 0 ? null : median(ratios.map((r) => r.rssRatio)),
    };
  });
}
