import type { ParsedArguments } from './argument-parser.js';
import { CliError } from './cli-error.js';

/**
 * Positional argument number `index` (from 0), named `what` in the error when it is missing.
 * @throws {CliError} (usage) when it is missing.
 */
export function requiredPositional(args: ParsedArguments, index: number, what: string): string {
  const value = args.positionals[index];
  if (value === undefined || value === '') throw CliError.usage(`missing ${what}`);
  return value;
}
