import type { OptionSpec, ParsedArguments } from './argument-parser.js';
import type { CliConnection } from './cli-connection.js';
import type { CliIo } from './cli-io.js';
import type { CliStore } from './store-connection.js';

/** What a command gets: its arguments, where to write, and the store it works on. */
export interface CommandContext {
  readonly io: CliIo;
  readonly args: ParsedArguments;
  /** `--json`: machine-readable output instead of text. */
  readonly json: boolean;
  /**
   * Where to connect (from `--database-url`, `DATABASE_URL` or libpq's variables, with the TLS
   * and Entra ID options), worked out on first use and released when the command returns.
   */
  connection(): Promise<CliConnection>;
  /** The schema (`--schema`, else `DURO_SCHEMA`, else `public`). */
  readonly schema: string;
  /** The store, opened on first use and closed when the command returns. */
  store(): Promise<CliStore>;
}

/** One `duro` command. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The argument synopsis after the command name, e.g. `INSTANCE [--json]`. */
  readonly usage: string;
  /** Lines describing each option, for `duro COMMAND --help`. */
  readonly details: readonly string[];
  /** The command's own options (the global ones are added by the runner). */
  readonly options: readonly OptionSpec[];
  run(context: CommandContext): Promise<void>;
}
