import { ClientError } from '@duro/core';
import { InspectionError } from '../inspection/inspection-error.js';
import { MigrationError } from '../migrations/migration-error.js';
import { InvalidSchemaNameError } from '../migrations/schema-name.js';
import { parseArguments, type OptionSpec } from './argument-parser.js';
import { CliError, EXIT_CODES } from './cli-error.js';
import type { CliIo } from './cli-io.js';
import type { Command, CommandContext } from './command.js';
import { COMMANDS } from './command-list.js';
import { commandHelp, generalHelp } from './help-text.js';
import { openCliConnection, type CliConnection } from './cli-connection.js';
import { openStore, type CliStore } from './store-connection.js';

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { name: 'database-url', kind: 'value' },
  { name: 'sslmode', kind: 'value' },
  { name: 'sslrootcert', kind: 'value' },
  { name: 'sslcert', kind: 'value' },
  { name: 'sslkey', kind: 'value' },
  { name: 'entra', kind: 'flag' },
  { name: 'entra-audience', kind: 'value' },
  { name: 'schema', kind: 'value' },
  { name: 'json', kind: 'flag' },
  { name: 'help', kind: 'flag', short: 'h' },
];

/**
 * Runs `duro` with `argv` (the words after the program name) and returns the exit code (see
 * {@link EXIT_CODES}). User errors print one line on standard error and no stack trace.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(generalHelp(COMMANDS));
    return EXIT_CODES.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr.write(`duro: unknown command '${name}'\nRun 'duro --help' for the commands.\n`);
    return EXIT_CODES.usage;
  }
  let connection: CliConnection | undefined;
  let store: CliStore | undefined;
  try {
    const args = parseArguments(rest, [...GLOBAL_OPTIONS, ...command.options]);
    if (args.flags.has('help')) {
      io.stdout.write(commandHelp(command));
      return EXIT_CODES.ok;
    }
    const schema = args.values.get('schema') ?? io.env.DURO_SCHEMA ?? 'public';
    const context: CommandContext = {
      io,
      args,
      json: args.flags.has('json'),
      schema,
      connection: async () => (connection ??= await openCliConnection(args, io.env)),
      store: async () => (store ??= await openStore(await context.connection(), schema)),
    };
    await command.run(context);
    return EXIT_CODES.ok;
  } catch (error) {
    return report(error, command, io);
  } finally {
    await store?.close().catch(() => undefined);
    connection?.release();
  }
}

function report(error: unknown, command: Command, io: CliIo): number {
  const known = asCliError(error);
  if (known) {
    io.stderr.write(`duro ${command.name}: ${known.message}\n`);
    if (known.exitCode === EXIT_CODES.usage) {
      io.stderr.write(`Usage: duro ${command.name} ${command.usage}\n`);
    }
    return known.exitCode;
  }
  const text = error instanceof Error ? error.message : String(error);
  io.stderr.write(`duro ${command.name}: ${text}\n`);
  if (io.env.DURO_DEBUG === '1' && error instanceof Error && error.stack) {
    io.stderr.write(`${error.stack}\n`);
  } else {
    io.stderr.write('(set DURO_DEBUG=1 for the stack trace)\n');
  }
  return EXIT_CODES.failure;
}

function asCliError(error: unknown): CliError | null {
  if (error instanceof CliError) return error;
  if (error instanceof InvalidSchemaNameError) return CliError.usage(error.message);
  if (InspectionError.isInstance(error)) {
    return error.code === 'invalid-request'
      ? CliError.usage(error.message)
      : CliError.connection(error.message);
  }
  if (error instanceof MigrationError) {
    return error.code === 'invalid-target'
      ? CliError.usage(error.message)
      : CliError.refused(error.message);
  }
  if (ClientError.isInstance(error)) {
    if (error.kind === 'InstanceNotFound') return new CliError(error.message, EXIT_CODES.notFound);
    if (error.kind === 'InvalidInput') return CliError.usage(error.message);
    return CliError.refused(error.message);
  }
  return null;
}
