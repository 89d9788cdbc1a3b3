import { CliError } from './cli-error.js';

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The value of `--option` as epoch milliseconds: an ISO 8601 time, or an age before `nowMs`
 * (`30m`, `12h`, `7d`).
 * @throws {CliError} (usage) for anything else, naming the option.
 */
export function parseTimeArgument(option: string, text: string, nowMs: number): number {
  const age = /^(\d+)([mhd])$/.exec(text);
  if (age) return nowMs - Number(age[1]) * (UNIT_MS[age[2] ?? 'd'] ?? 0);
  const time = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) {
    throw CliError.usage(`--${option} must be an ISO 8601 time or an age like 7d, got '${text}'`);
  }
  return time;
}
