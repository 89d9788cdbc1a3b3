import type { Command } from './command.js';

const CONNECTION = [
  'Connection (every command):',
  "  --database-url URL      PostgreSQL URL (default: $DATABASE_URL, else one made of libpq's",
  '                          PGHOST, PGPORT, PGDATABASE, PGUSER and PGPASSWORD)',
  '  --sslmode MODE          disable, allow, prefer, require, verify-ca or verify-full (default:',
  "                          the URL's sslmode, else $PGSSLMODE, else disable); use verify-full",
  '                          in production',
  "  --sslrootcert FILE      CA certificates the server must chain to (default: the URL's,",
  '                          else $PGSSLROOTCERT; "system" for the bundled roots)',
  '  --sslcert FILE          client certificate (default: $PGSSLCERT), with its key:',
  '  --sslkey FILE           (default: $PGSSLKEY)',
  '  --entra                 log in as an Entra ID user (Azure Database for PostgreSQL) with an',
  "                          access token from @azure/identity's DefaultAzureCredential (install",
  '                          @azure/identity); the URL or PG* variables name the user, host and',
  '                          database, and no password; always verify-full',
  '  --entra-audience SCOPE  token scope (default: https://ossrdbms-aad.database.windows.net/.default)',
  '  --schema NAME           the duro schema (default: $DURO_SCHEMA, else public)',
  '  --json                  machine-readable output, where the command has it',
  '  -h, --help              this help',
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
