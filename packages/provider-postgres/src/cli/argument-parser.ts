import { CliError } from './cli-error.js';

/** How one `--option` is read: a flag (no value), or an option that takes one value. */
export interface OptionSpec {
  readonly name: string;
  readonly kind: 'flag' | 'value';
  /** One letter that stands for the option after a single dash (`-h`). */
  readonly short?: string;
}

/** The words of a command line, sorted into positionals, flags and option values. */
export interface ParsedArguments {
  readonly positionals: readonly string[];
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string>;
}

/**
 * Sorts `argv` by `specs`: `--name value`, `--name=value`, `-x`, flags, and positionals (all
 * words after `--` are positionals). An option given twice keeps its last value.
 * @throws {CliError} (usage) naming an unknown option, a value given to a flag, or an option
 * whose value is missing.
 */
export function parseArguments(
  argv: readonly string[],
  specs: readonly OptionSpec[],
): ParsedArguments {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const byShort = new Map(specs.flatMap((spec) => (spec.short ? [[spec.short, spec]] : [])));
  const positionals: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    if (word === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-' || /^-\d/.test(word)) {
      positionals.push(word);
      continue;
    }
    const [written, inline] = splitInline(word);
    const spec = written.startsWith('--')
      ? byName.get(written.slice(2))
      : written.length === 2
        ? byShort.get(written.slice(1))
        : undefined;
    if (!spec) throw CliError.usage(`unknown option ${written}`);
    if (spec.kind === 'flag') {
      if (inline !== undefined) throw CliError.usage(`option --${spec.name} takes no value`);
      flags.add(spec.name);
      continue;
    }
    const value = inline ?? argv[index + 1];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) {
      throw CliError.usage(`option --${spec.name} needs a value`);
    }
    if (inline === undefined) index += 1;
    values.set(spec.name, value);
  }
  return { positionals, flags, values };
}

function splitInline(word: string): [string, string | undefined] {
  const equals = word.indexOf('=');
  return equals < 0 ? [word, undefined] : [word.slice(0, equals), word.slice(equals + 1)];
}

/**
 * The value of `--name` as a whole number of at least `min`, or `undefined` when not given.
 * @throws {CliError} (usage) when the value is not such a number.
 */
export function integerOption(
  parsed: ParsedArguments,
  name: string,
  min: number,
): number | undefined {
  const text = parsed.values.get(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw CliError.usage(`option --${name} must be a whole number >= ${min}, got '${text}'`);
  }
  return value;
}
