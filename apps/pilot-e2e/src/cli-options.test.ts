import { describe, expect, it } from 'vitest';
import { parseCliOptions, UsageError } from './cli-options.js';
import { planFaults } from './chaos/chaos-schedule.js';
import { PRESETS } from './presets.js';
import { SeededRandom } from './workload/seeded-random.js';

describe('the pilot-e2e command line', () => {
  it('runs the default preset when given no flags', () => {
    const options = parseCliOptions([]);
    expect(options.preset).toBe('default');
    expect(options.config).toEqual(PRESETS.default);
  });

  it('overrides single fields of a preset and keeps the rest', () => {
    const options = parseCliOptions(['--preset', 'soak', '--workers', '5', '--kills', '0']);
    expect(options.config.workers).toBe(5);
    expect(options.config.chaos.killMidActivity).toBe(0);
    expect(options.config.sessions).toBe(PRESETS.soak.sessions);
    expect(options.config.chaos.freezes).toBe(PRESETS.soak.chaos.freezes);
  });

  it('reads durations in seconds, or with an s, m or h unit', () => {
    expect(parseCliOptions(['--duration', '90']).config.loadDurationMs).toBe(90_000);
    expect(parseCliOptions(['--duration', '1.5s']).config.loadDurationMs).toBe(1_500);
    expect(parseCliOptions(['--duration', '10m']).config.loadDurationMs).toBe(600_000);
    expect(parseCliOptions(['--settle-timeout', '1h']).config.settleTimeoutMs).toBe(3_600_000);
  });

  it('names the flag and the value it refuses', () => {
    expect(() => parseCliOptions(['--duration', '10 minutes'])).toThrow(
      new UsageError(
        '--duration must be a positive duration such as 90, 90s, 10m or 1h, got "10 minutes"',
      ),
    );
    expect(() => parseCliOptions(['--workers', '0'])).toThrow('--workers must be an integer >= 1');
    expect(() => parseCliOptions(['--preset', 'huge'])).toThrow('--preset must be one of');
    expect(() => parseCliOptions(['--schema-prefix', 'a; drop'])).toThrow('--schema-prefix');
    expect(() => parseCliOptions(['--bogus'])).toThrow(UsageError);
  });

  it('refuses a mixed fleet without a duro worker beside the Rust one', () => {
    expect(parseCliOptions(['--mixed-fleet', '--workers', '2']).mixedFleet).toBe(true);
    expect(() => parseCliOptions(['--mixed-fleet', '--workers', '1'])).toThrow(
      new UsageError(
        '--mixed-fleet needs at least 2 main-schema workers (duro and Rust side by side), got --workers 1',
      ),
    );
  });

  it('skips the -- that pnpm hands on before the flags, and only that one', () => {
    expect(parseCliOptions(['--', '--report', 'r.json']).reportFile).toBe('r.json');
    expect(() => parseCliOptions(['--preset', 'soak', '--', '--report', 'r.json'])).toThrow(
      UsageError,
    );
  });

  it('turns chaos off with --no-chaos', () => {
    expect(parseCliOptions(['--no-chaos']).config.chaos.enabled).toBe(false);
  });

  it('refuses server restarts on a server the run does not own, naming the flag that fixes it', () => {
    expect(() =>
      parseCliOptions(['--preset', 'faults', '--database-url', 'postgres://h/db']),
    ).toThrow('add --server-restarts 0 (the faults preset has 8)');
    expect(
      parseCliOptions([
        '--preset',
        'faults',
        '--database-url',
        'postgres://h/db',
        '--server-restarts',
        '0',
      ]).config.chaos.serverRestarts,
    ).toBe(0);
  });

  it('the faults preset plans over a hundred faults, every kind among them', () => {
    const faults = planFaults(PRESETS.faults.chaos, new SeededRandom(1, 'chaos'));
    expect(faults.length).toBeGreaterThanOrEqual(100);
    expect(new Set(faults)).toEqual(
      new Set([
        'kill-mid-activity',
        'kill-mid-ack',
        'freeze',
        'connection-drop',
        'rolling-restart',
        'server-restart',
      ]),
    );
  });
});
