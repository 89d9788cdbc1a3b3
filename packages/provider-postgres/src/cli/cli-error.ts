/**
 * The exit codes of `duro`: 0 success; 1 an unexpected failure (the only case that prints a stack
 * trace, and only with `DURO_DEBUG=1`); 2 a usage error; 3 an instance that does not exist;
 * 4 a database that cannot be reached or used (bad URL, refused connection, failed login,
 * missing database, unmigrated schema); 5 an operation the store refused (a running instance
 * deleted without `--force`, a migration the ledger forbids).
 */
export const EXIT_CODES = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  connection: 4,
  refused: 5,
} as const;

/** A user-facing failure of `duro`: its message is printed as it is, without a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    /** The process exit code, one of {@link EXIT_CODES}. */
    readonly exitCode: number,
  ) {
    super(message);
  }

  /** Bad arguments; the message is followed by a pointer to `--help`. */
  static usage(message: string): CliError {
    return new CliError(message, EXIT_CODES.usage);
  }

  static notFound(instanceId: string): CliError {
    return new CliError(`instance '${instanceId}' not found`, EXIT_CODES.notFound);
  }

  static connection(message: string): CliError {
    return new CliError(message, EXIT_CODES.connection);
  }

  static refused(message: string): CliError {
    return new CliError(message, EXIT_CODES.refused);
  }
}
