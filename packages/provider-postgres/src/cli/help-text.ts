import type { Command } from './command.js';

const CONNECTION = [
  'Connection (every command):',
  '  --database-url URL   PostgreSQL URL (default: $DATABASE_URL)',
  '  --schema NAME        the duro schema (default: $DURO_SCHEMA, else public)',
  '  --json               machine-readable output, where the command has it',
  '  -h, --help           this help',
];

const EXIT_CODES = [
  'Exit codes: 0 ok, 1 unexpected failure, 2 usage error, 3 instance not found,',
  '            4 database unreachable or unusable, 5 refused by the store.',
];

/** `duro --help`: every command with its one-line summary. */
export function generalHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'duro: operate a duro (duroxide) store on PostgreSQL',
    '',
    'Usage: duro COMMAND [ARGS] [OPTIONS]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    ...CONNECTION,
    '',
    ...EXIT_CODES,
    "Run 'duro COMMAND --help' for a command's arguments.",
    '',
  ].join('\n');
}

/** `duro COMMAND --help`: the command's synopsis and options. */
export function commandHelp(command: Command): string {
  return [
    `duro ${command.name}: ${command.summary}`,
    '',
    `Usage: duro ${command.name} ${command.usage}`,
    ...(command.details.length > 0 ? ['', ...command.details.map((line) => `  ${line}`)] : []),
    '',
    ...CONNECTION,
    '',
  ].join('\n');
}
