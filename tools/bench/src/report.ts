import type { BenchEnvironment } from '@duro/bench-provider';
import { slotsText, type Slots } from './options.js';
import type { CellResult } from './cell-result.js';
import { duroToRustRatio, type RoundsSummary } from './rounds.js';

/** Stage steps that take less time than this per instance are left out of the printed report. */
const MIN_STEP_MS = 0.1;

export interface PgbenchResult {
  readonly clients: number;
  readonly tps: number;
}

/** Everything a run measured, as written to `--json`. */
export interface BenchReport {
  readonly date: string;
  /** Where the server came from (DATABASE_URL, --database-url, embedded). */
  readonly server: string;
  readonly environment: BenchEnvironment;
  readonly futureTimers: number;
  readonly pgbench: readonly PgbenchResult[];
  readonly cells: readonly CellResult[];
  /** The cells by workload, slots and runtime over every round (one round: its figures). */
  readonly medians: readonly RoundsSummary[];
  readonly idle: readonly IdleResult[];
  readonly soak: SoakResult | null;
}

/** Queries an idle duro worker sent. */
export interface IdleResult {
  readonly slots: Slots;
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

/** The run's figures as Markdown: the setting, pgbench, the cells, idle and soak. */
export function formatReport(report: BenchReport): string {
  const env = report.environment;
  const lines = [
    '# duro and Rust duroxide-pg: orchestration benchmark',
    '',
    `- date: ${report.date}`,
    `- server: ${report.server}`,
    `- PostgreSQL: ${env.postgresVersion}`,
    ...Object.entries(env.settings).map(([name, value]) => `- ${name}: ${value}`),
    `- machine: ${env.cpuCount} cores (${env.cpuModel}), ${env.memoryGiB} GiB, ${env.platform}`,
    `- Node.js ${env.node}`,
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
    '## Orchestrations',
    '',
    row([
      'workload',
      'slots',
      'runtime',
      'round',
      'in flight',
      'orch/s',
      'act/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'max ms',
      'commits/orch',
      'process CPU ms/orch',
      'machine CPU ms/orch',
      'busy cores',
      'duro/Rust',
    ]),
    row(Array.from({ length: 16 }, () => '---')),
  );
  for (const cell of report.cells) {
    const f = cell.figures;
    const ratio = cell.runtime === 'duro' ? duroToRustRatio(report.cells, cell) : null;
    lines.push(
      row([
        cell.workload,
        slotsText(cell.slots),
        cell.runtime,
        cell.round,
        cell.inFlight,
        fixed(f.orchestrationsPerSecond, 1),
        fixed(f.activitiesPerSecond, 1),
        fixed(f.p50Ms, 1),
        fixed(f.p95Ms, 1),
        fixed(f.p99Ms, 1),
        fixed(f.maxMs, 1),
        fixed(f.commitsPerOrchestration, 1),
        fixed(f.processCpuMsPerOrchestration, 2),
        fixed(f.machineCpuMsPerOrchestration, 2),
        fixed(f.machineBusyCores, 2),
        ratio === null ? '' : `${fixed(ratio, 1)}×`,
      ]),
    );
  }
  if (report.medians.some((summary) => summary.rounds > 1)) {
    lines.push(
      '',
      '## Medians over rounds',
      '',
      row([
        'workload',
        'slots',
        'runtime',
        'rounds',
        'orch/s median',
        'orch/s min–max',
        'p50 ms median',
        'machine CPU ms/orch median',
        'duro/Rust median',
      ]),
      row(Array.from({ length: 9 }, () => '---')),
    );
    for (const summary of report.medians) {
      lines.push(
        row([
          summary.workload,
          slotsText(summary.slots),
          summary.runtime,
          summary.rounds,
          fixed(summary.medianOrchestrationsPerSecond, 1),
          `${fixed(summary.minOrchestrationsPerSecond, 1)}–${fixed(summary.maxOrchestrationsPerSecond, 1)}`,
          fixed(summary.medianP50Ms, 1),
          fixed(summary.medianMachineCpuMsPerOrchestration, 2),
          summary.medianDuroToRust === null ? '' : `${fixed(summary.medianDuroToRust, 1)}×`,
        ]),
      );
    }
  }
  const counted = report.cells.filter((cell) => cell.statementsPerOrchestration !== undefined);
  if (counted.length > 0) {
    lines.push('', '## duro statements per orchestration', '');
    for (const cell of counted) {
      const rates = Object.entries(cell.statementsPerOrchestration ?? {});
      const total = rates.reduce((sum, [, rate]) => sum + rate, 0);
      const parts = rates.map(([label, rate]) => `${label} ${fixed(rate, 2)}`).join(', ');
      lines.push(
        `- ${cell.workload} ${slotsText(cell.slots)} ${cell.runtime}: ${fixed(total, 1)} in all: ${parts}`,
      );
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
        `- ${cell.workload} ${slotsText(cell.slots)} ${cell.runtime} round ${cell.round}: ${steps.join(', ')}`,
      );
    }
  }
  for (const idle of report.idle) {
    lines.push(
      '',
      `## Idle duro worker (${idle.seconds} s, ${slotsText(idle.slots)} slots)`,
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
