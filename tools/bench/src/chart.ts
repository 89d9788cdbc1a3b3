import type { RuntimeName } from './options.js';
import type { BenchReport } from './report.js';
import { settingLabel, type RoundsSummary } from './rounds.js';

const ROW_HEIGHT = 18;
const GROUP_GAP = 10;
const LABEL_WIDTH = 40;
const BAR_WIDTH = 520;
const COLOURS: Readonly<Record<RuntimeName, string>> = {
  duro: '#2b6cb0',
  'duro-uncached': '#90cdf4',
  'duro-one-turn': '#4fd1c5',
  'duro-fetched': '#805ad5',
  'duro-non-durable-claims': '#a0aec0',
  rust: '#c05621',
};

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * An SVG bar chart of orchestrations/s: one group per workload and setting, a bar per
 * runtime (the median over the run's rounds). Bars are scaled per workload, so a slow
 * workload's bars are still readable; the number on each bar is the figure.
 */
export function renderChart(report: BenchReport): string {
  const groups = new Map<string, RoundsSummary[]>();
  for (const summary of report.medians) {
    const key = settingLabel(summary);
    groups.set(key, [...(groups.get(key) ?? []), summary]);
  }
  const maxByWorkload = new Map<string, number>();
  for (const summary of report.medians) {
    const max = maxByWorkload.get(summary.workload) ?? 0;
    maxByWorkload.set(summary.workload, Math.max(max, summary.medianOrchestrationsPerSecond));
  }
  const parts: string[] = [];
  let y = 50;
  for (const [label, summaries] of groups) {
    const ratio = summaries.find((s) => s.runtime === 'duro')?.medianToRust ?? null;
    const title = ratio === null ? label : `${label} (duro/Rust ${ratio.toFixed(2)}×)`;
    parts.push(
      `<text x="8" y="${y + ROW_HEIGHT - 5}" font-size="12" font-weight="bold">${escape(title)}</text>`,
    );
    y += ROW_HEIGHT;
    for (const summary of summaries) {
      const value = summary.medianOrchestrationsPerSecond;
      const max = maxByWorkload.get(summary.workload) ?? value;
      const width = max > 0 ? Math.max(1, (value / max) * BAR_WIDTH) : 1;
      parts.push(
        `<rect x="${LABEL_WIDTH + 60}" y="${y + 2}" width="${width.toFixed(1)}" height="${ROW_HEIGHT - 4}" fill="${COLOURS[summary.runtime]}"/>`,
        `<text x="${LABEL_WIDTH + 55}" y="${y + ROW_HEIGHT - 5}" font-size="11" text-anchor="end">${summary.runtime}</text>`,
        `<text x="${(LABEL_WIDTH + 64 + width).toFixed(1)}" y="${y + ROW_HEIGHT - 5}" font-size="11">${value.toFixed(1)}/s, p50 ${summary.medianP50Ms.toFixed(0)} ms</text>`,
      );
      y += ROW_HEIGHT;
    }
    y += GROUP_GAP;
  }
  const width = LABEL_WIDTH + 60 + BAR_WIDTH + 160;
  const env = report.environment;
  const subtitle =
    `${env.postgresVersion.split(' on ')[0] ?? env.postgresVersion}, synchronous_commit ` +
    `${env.settings.synchronous_commit ?? '?'}, ${env.cpuCount} cores, ${env.memoryGiB} GiB, ${report.date}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y + 10}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="8" y="20" font-size="15" font-weight="bold">Orchestrations per second: duro and Rust duroxide-pg</text>`,
    `<text x="8" y="38" font-size="11" fill="#555">${escape(subtitle)}</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
