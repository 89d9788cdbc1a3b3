import { SchemaInspector } from '../../inspection/schema-inspector.js';
import { integerOption } from '../argument-parser.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { loadDashboard } from '../dashboard-loader.js';
import { openPool } from '../store-connection.js';

/** `duro ui`: serves the web dashboard on the schema until interrupted. */
export const uiCommand: Command = {
  name: 'ui',
  summary:
    'serve the web dashboard: instances, histories, queues, and actions (needs @duro/dashboard)',
  usage: '[--host HOST] [--port PORT] [--token TOKEN] [--allow-actions]',
  details: [
    '--host HOST       address to listen on (default 127.0.0.1); any other than 127.0.0.1,',
    '                  ::1 or localhost requires an access token (generated unless --token)',
    '--port PORT       port to listen on (default 4300; 0 takes a free one)',
    '--token TOKEN     access token every request must carry (at least 8 characters);',
    '                  also read from DURO_UI_TOKEN',
    '--allow-actions   enable raise, enqueue, cancel, delete and prune (each confirmed in the',
    '                  page and logged on standard error); read-only without it',
  ],
  options: [
    { name: 'host', kind: 'value' },
    { name: 'port', kind: 'value' },
    { name: 'token', kind: 'value' },
    { name: 'allow-actions', kind: 'flag' },
  ],
  async run(context) {
    const { io, args } = context;
    const port = integerOption(args, 'port', 0) ?? 4300;
    if (port > 65_535) throw CliError.usage(`option --port must be at most 65535, got ${port}`);
    const accessToken = args.values.get('token') ?? io.env.DURO_UI_TOKEN;
    if (accessToken !== undefined && accessToken.length < 8) {
      throw CliError.usage('the access token must have at least 8 characters');
    }
    const connection = await context.connection();
    if (connection.target.kind !== 'url') {
      throw CliError.usage(
        'duro ui connects with a database URL (TLS options included); it does not log in with --entra',
      );
    }
    const databaseUrl = connection.target.url;
    // Checked here first, for the command's own messages and exit codes.
    const pool = await openPool(connection);
    try {
      await new SchemaInspector(pool, context.schema).checkMigrated();
    } finally {
      await pool.end();
    }
    const dashboard = await loadDashboard(process.cwd());
    const allowActions = args.flags.has('allow-actions');
    let running: Awaited<ReturnType<typeof dashboard.startDashboard>>;
    try {
      running = await dashboard.startDashboard({
        databaseUrl,
        schema: context.schema,
        host: args.values.get('host') ?? '127.0.0.1',
        port,
        ...(accessToken !== undefined ? { accessToken } : {}),
        allowActions,
        log: (line) => io.stderr.write(`${line}\n`),
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL' || code === 'EACCES') {
        throw CliError.usage(`cannot listen there: ${(error as Error).message}`);
      }
      throw error;
    }
    io.stdout.write(
      `duro ui: schema '${context.schema}', ${allowActions ? 'actions enabled' : 'read-only'}\n` +
        `duro ui: open ${running.url}\n`,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await running.close();
    io.stdout.write('duro ui: stopped\n');
  },
};
