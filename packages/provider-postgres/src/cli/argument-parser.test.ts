import { describe, expect, it } from 'vitest';
import { integerOption, parseArguments, type OptionSpec } from './argument-parser.js';
import { CliError } from './cli-error.js';

const SPECS: OptionSpec[] = [
  { name: 'json', kind: 'flag' },
  { name: 'help', kind: 'flag', short: 'h' },
  { name: 'limit', kind: 'value' },
  { name: 'schema', kind: 'value' },
];

describe('duro argument parser', () => {
  it('sorts positionals, flags and values in any order, with --name value and --name=value', () => {
    const parsed = parseArguments(['a', '--json', '--limit', '5', 'b', '--schema=s', '-h'], SPECS);
    expect(parsed.positionals).toEqual(['a', 'b']);
    expect([...parsed.flags].sort()).toEqual(['help', 'json']);
    expect(Object.fromEntries(parsed.values)).toEqual({ limit: '5', schema: 's' });
  });

  it('takes every word after -- as a positional, and negative numbers as positionals', () => {
    const parsed = parseArguments(['--', '--json', '-h'], SPECS);
    expect(parsed.positionals).toEqual(['--json', '-h']);
    expect(parseArguments(['-5'], SPECS).positionals).toEqual(['-5']);
  });

  it('refuses unknown options, values given to flags and missing values, naming the option', () => {
    const usage = (argv: string[]) => {
      try {
        parseArguments(argv, SPECS);
      } catch (error) {
        expect(error).toBeInstanceOf(CliError);
        return (error as CliError).message;
      }
      return 'no error';
    };
    expect(usage(['--nope'])).toBe('unknown option --nope');
    expect(usage(['-x'])).toBe('unknown option -x');
    expect(usage(['--json=yes'])).toBe('option --json takes no value');
    expect(usage(['--limit'])).toBe('option --limit needs a value');
    expect(usage(['--limit', '--json'])).toBe('option --limit needs a value');
  });

  it('reads whole-number options and refuses anything else', () => {
    expect(integerOption(parseArguments(['--limit', '20'], SPECS), 'limit', 1)).toBe(20);
    expect(integerOption(parseArguments([], SPECS), 'limit', 1)).toBeUndefined();
    for (const bad of ['0', '1.5', 'ten', '-3']) {
      expect(() => integerOption(parseArguments([`--limit=${bad}`], SPECS), 'limit', 1)).toThrow(
        `option --limit must be a whole number >= 1, got '${bad}'`,
      );
    }
  });
});
