import type { BenchEnvironment } from '@duro/bench-provider';
import type { CellResult } from './cell-result.js';
import { nativeAddonLines, type NativeAddon } from './native-addon.js';
import { capsText, type Caps } from './options.js';
import { compareWithRust, settingLabel, type RoundsSummary } from './rounds.js';

/** Stage steps that take less time than this per instance are left out of the printed report. */
const MIN_STEP_MS = 0.1;

export interface PgbenchResult {
  readonly clients: number;
  readonly tps: number;
}

/** Everything a run measured, as written to `--json`. */
export interface BenchReport {
  readonly date: string;
  /** The command line that made it, and the commit it ran. */
  readonly command: string;
  readonly commit: string;
  /** Where the server came from (DATABASE_URL, --database-url, embedded). */
  readonly server: string;
  readonly environment: BenchEnvironment;
  /** The `@duro/native` build the Rust cells ran in; `null` when none ran. */
  readonly nativeAddon: NativeAddon | null;
  readonly futureTimers: number;
  readonly pgbench: readonly PgbenchResult[];
  readonly cells: readonly CellResult[];
  /** The cells by workload, setting and runtime over every round (one round: its figures). */
  readonly medians: readonly RoundsSummary[];
  readonly idle: readonly IdleResult[];
  readonly soak: SoakResult | null;
}

/** Queries an idle duro worker sent. */
export interface IdleResult {
  readonly caps: Caps;
  readonly seconds: number;
  /** Counted by the bench around `pg.Client#query`, the LISTEN connection included. */
  readonly queriesPerSecond: number;
  /** The server's committed and rolled-back transactions over the same time. */
  readonly transactionsPerSecond: number;
}

/** A worker's resident memory during a fan-out-5 soak. */
export interface SoakResult {
  readonly seconds: number;
  readonly orchestrations: number;
  /** RSS samples, MiB, the first taken after the warm-up. */
  readonly rssMiB: readonly number[];
  /** The heap in use right after a full collection, MiB, taken with each RSS sample. */
  readonly heapAfterCollectionMiB: readonly number[];
  /** Orchestrations completed per second between each two RSS samples. */
  readonly orchestrationsPerSecond: readonly number[];
}

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
const fixed = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toFixed(digits) : '–';

/** The first and last intervals' orch/s of a soak, and the lowest and highest. */
function soakThroughput(perSecond: readonly number[]): string {
  if (perSecond.length === 0) return 'no interval measured';
  return (
    `${fixed(perSecond[0] ?? Number.NaN, 1)} orch/s in the first interval, ` +
    `${fixed(perSecond.at(-1) ?? Number.NaN, 1)} in the last ` +
    `(${fixed(Math.min(...perSecond), 1)}–${fixed(Math.max(...perSecond), 1)})`
  );
}

const percent = (share: number): string =>
  Number.isFinite(share) ? `${fixed(share * 100, 0)} %` : '–';

/** Each runtime's promises and settings, once per runtime and caps. */
function runtimeLines(cells: readonly CellResult[]): string[] {
  const seen = new Map<string, string>();
  for (const cell of cells) {
    const g = cell.guarantees;
    const durable = (yes: boolean): string => (yes ? 'durable' : '**NOT durable**');
    seen.set(
      `${cell.runtime} ${capsText(cell.caps)} ×${cell.processes}`,
      `${g.activitiesAtOnce} activities at once, ${g.orchestrationSlots} orchestration slots, ` +
        `acks ${durable(g.durableAcks)}, claims ${durable(g.durableClaims)}; ${cell.settings}`,
    );
  }
  return [
    '## Runtimes: what each promises, and its settings',
    '',
    ...[...seen].map(([key, text]) => `- ${key}: ${text}`),
    '',
  ];
}

/** The ratio column of a cell: duro/Rust at equal promises, a loud mark otherwise. */
function comparisonText(cells: readonly CellResult[], cell: CellResult): string {
  const comparison = compareWithRust(cells, cell);
  if (comparison === null) return '';
  if (comparison.kind === 'unequal') return '**UNEQUAL**';
  return `${fixed(comparison.ratio, 2)}×`;
}

function cellLines(report: BenchReport): string[] {
  const lines = [
    '## Orchestrations',
    '',
    'CPU is ms per orchestration from the moment every runtime process served until the last instance completed; "all" is runtime + client + server, "machine" every busy core (other work included).',
    '',
    row([
      'workload',
      'caps',
      'procs',
      'runtime',
      'round',
      'in flight',
      'orch/s',
      'sleep ceiling',
      'of ceiling',
      'p50 ms',
      'p99 ms',
      'max ms',
      'commits/orch',
      'CPU runtime',
      'CPU client',
      'CPU server',
      'CPU all',
      'server share',
      'CPU machine',
      'peak RSS MiB',
      'load',
      'steal',
      'duro/Rust',
    ]),
    row(Array.from({ length: 23 }, () => '---')),
  ];
  for (const cell of report.cells) {
    const f = cell.figures;
    const ceiling = cell.sleepCeiling;
    lines.push(
      row([
        cell.workload,
        capsText(cell.caps),
        cell.processes,
        cell.runtime,
        cell.round,
        cell.inFlight,
        fixed(f.orchestrationsPerSecond, 1),
        ceiling === null ? '' : fixed(ceiling, 0),
        ceiling === null ? '' : percent(f.orchestrationsPerSecond / ceiling),
        fixed(f.p50Ms, 1),
        fixed(f.p99Ms, 1),
        fixed(f.maxMs, 1),
        fixed(f.commitsPerOrchestration, 1),
        fixed(f.runtimeCpuMsPerOrchestration, 2),
        fixed(f.clientCpuMsPerOrchestration, 2),
        fixed(f.serverCpuMsPerOrchestration, 2),
        fixed(f.totalCpuMsPerOrchestration, 2),
        percent(f.serverShare),
        fixed(f.machineCpuMsPerOrchestration, 2),
        fixed(f.peakRssMiB, 0),
        `${fixed(f.loadAverage[0], 1)}→${fixed(f.loadAverage[1], 1)}`,
        percent(f.stealShare),
        comparisonText(report.cells, cell),
      ]),
    );
  }
  return lines;
}

/** Where the memory of each cell's largest runtime process was when the cell ended. */
function memoryLines(cells: readonly CellResult[]): string[] {
  return [
    '',
    '## Memory of the runtime processes',
    '',
    'Of the runtime process with the largest peak RSS, MiB, when it was told to stop: the V8 heap it held (of it the young generation), the objects in it (garbage included), what a full collection left, and buffers outside the heap.',
    '',
    row([
      'workload',
      'caps',
      'procs',
      'runtime',
      'round',
      'peak RSS',
      'RSS at end',
      'heap held',
      'young generation',
      'heap used',
      'live after full GC',
      'external',
    ]),
    row(Array.from({ length: 12 }, () => '---')),
    ...cells.map((cell) => {
      const m = cell.figures.memory;
      return row([
        cell.workload,
        capsText(cell.caps),
        cell.processes,
        cell.runtime,
        cell.round,
        fixed(m.peakRssMiB, 0),
        fixed(m.rssMiB, 0),
        fixed(m.heapCommittedMiB, 1),
        fixed(m.youngGenerationMiB, 1),
        fixed(m.heapUsedMiB, 1),
        fixed(m.heapLiveMiB, 1),
        fixed(m.externalMiB, 1),
      ]);
    }),
  ];
}

/** A loud list of the cells whose runtimes promised different things, so got no ratio. */
function unequalLines(cells: readonly CellResult[]): string[] {
  const unequal = cells.flatMap((cell) => {
    const comparison = compareWithRust(cells, cell);
    return comparison?.kind === 'unequal'
      ? [
          `- ${settingLabel(cell)} ${cell.runtime} round ${cell.round}: ${comparison.differences.join('; ')}`,
        ]
      : [];
  });
  if (unequal.length === 0) return [];
  return [
    '',
    '## UNEQUAL CELLS: not comparable with Rust',
    '',
    'These cells promise something else than the Rust cell beside them (duro vs Rust), so no ratio is given:',
    '',
    ...unequal,
  ];
}

function medianLines(report: BenchReport): string[] {
  const lines = [
    '',
    '## Medians over rounds',
    '',
    row([
      'workload',
      'caps',
      'procs',
      'runtime',
      'rounds',
      'orch/s median',
      'orch/s min–max',
      'of sleep ceiling',
      'p50 ms',
      'p99 ms',
      'CPU all ms/orch',
      'peak RSS MiB',
      'duro/Rust',
      'RSS duro/Rust',
    ]),
    row(Array.from({ length: 14 }, () => '---')),
  ];
  for (const summary of report.medians) {
    const ceiling = summary.sleepCeiling;
    lines.push(
      row([
        summary.workload,
        capsText(summary.caps),
        summary.processes,
        summary.runtime,
        summary.rounds,
        fixed(summary.medianOrchestrationsPerSecond, 1),
        `${fixed(summary.minOrchestrationsPerSecond, 1)}–${fixed(summary.maxOrchestrationsPerSecond, 1)}`,
        ceiling === null ? '' : percent(summary.medianOrchestrationsPerSecond / ceiling),
        fixed(summary.medianP50Ms, 1),
        fixed(summary.medianP99Ms, 1),
        fixed(summary.medianTotalCpuMsPerOrchestration, 2),
        fixed(summary.medianPeakRssMiB, 0),
        summary.medianToRust === null ? '' : `${fixed(summary.medianToRust, 2)}×`,
        summary.medianRssToRust === null ? '' : `${fixed(summary.medianRssToRust, 2)}×`,
      ]),
    );
  }
  return lines;
}

/** The run's figures as Markdown: the setting, pgbench, the cells, idle and soak. */
export function formatReport(report: BenchReport): string {
  const env = report.environment;
  const lines = [
    '# duro and Rust duroxide-pg: orchestration benchmark',
    '',
    `- date: ${report.date}`,
    `- command: \`${report.command}\``,
    `- commit: ${report.commit}`,
    `- server: ${report.server}`,
    `- PostgreSQL: ${env.postgresVersion}`,
    ...Object.entries(env.settings).map(([name, value]) => `- ${name}: ${value}`),
    `- machine: ${env.cpuCount} cores (${env.cpuModel}), ${env.memoryGiB} GiB, ${env.platform}`,
    `- Node.js ${env.node}`,
    ...nativeAddonLines(report.nativeAddon),
    `- future timers queued in every schema: ${report.futureTimers}`,
    '',
  ];
  if (report.pgbench.length > 0) {
    lines.push(
      '## pgbench (TPC-B-like), the ceiling',
      '',
      row(['clients', 'TPS']),
      row(['---', '---']),
    );
    for (const p of report.pgbench) lines.push(row([p.clients, fixed(p.tps, 0)]));
    lines.push('');
  }
  lines.push(
    ...runtimeLines(report.cells),
    ...cellLines(report),
    ...unequalLines(report.cells),
    ...memoryLines(report.cells),
  );
  if (report.medians.some((summary) => summary.rounds > 1)) lines.push(...medianLines(report));
  const counted = report.cells.filter((cell) => cell.statementsPerOrchestration !== undefined);
  if (counted.length > 0) {
    lines.push('', '## duro statements per orchestration', '');
    for (const cell of counted) {
      const rates = Object.entries(cell.statementsPerOrchestration ?? {});
      const total = rates.reduce((sum, [, rate]) => sum + rate, 0);
      const parts = rates.map(([label, rate]) => `${label} ${fixed(rate, 2)}`).join(', ');
      lines.push(`- ${settingLabel(cell)} ${cell.runtime}: ${fixed(total, 1)} in all: ${parts}`);
    }
  }
  const staged = report.cells.filter((cell) => cell.stages !== undefined);
  if (staged.length > 0) {
    lines.push(
      '',
      "## Where a duro instance's time goes",
      '',
      `Per measured instance: ms from one stage to the next (times the step was taken); steps of under ${MIN_STEP_MS} ms are in the JSON only.`,
      '',
    );
    for (const cell of staged) {
      const shown = (cell.stages ?? []).filter((step) => step.msPerInstance >= MIN_STEP_MS);
      const steps = shown.map(
        (step) =>
          `${step.from} → ${step.to} ${fixed(step.msPerInstance, 1)} (×${fixed(step.timesPerInstance, 1)})`,
      );
      lines.push(
        `- ${settingLabel(cell)} ${cell.runtime} round ${cell.round}: ${steps.join(', ')}`,
      );
    }
  }
  for (const idle of report.idle) {
    lines.push(
      '',
      `## Idle duro worker (${idle.seconds} s, ${capsText(idle.caps)} caps)`,
      '',
      `- queries sent: ${fixed(idle.queriesPerSecond, 2)}/s`,
      `- server transactions: ${fixed(idle.transactionsPerSecond, 2)}/s`,
    );
  }
  if (report.soak !== null) {
    const soak = report.soak;
    const startEndPeak = (samples: readonly number[]): string =>
      `${fixed(samples[0] ?? Number.NaN, 0)} MiB at the start, ` +
      `${fixed(samples.at(-1) ?? Number.NaN, 0)} MiB at the end ` +
      `(peak ${fixed(Math.max(...samples), 0)} MiB)`;
    lines.push(
      '',
      `## Soak: fan-out-5 for ${soak.seconds} s, ${soak.orchestrations} orchestrations`,
      '',
      `- worker RSS: ${startEndPeak(soak.rssMiB)}`,
      `- heap in use after a full collection: ${startEndPeak(soak.heapAfterCollectionMiB)}`,
      `- throughput: ${soakThroughput(soak.orchestrationsPerSecond)}`,
    );
  }
  return lines.join('\n');
}
