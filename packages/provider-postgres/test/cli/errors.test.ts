import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runDuro } from '../support/duro-cli.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();

/** A local port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('duro errors', () => {
  it('help lists every command and the exit codes; each command has its own help', async () => {
    const help = await runDuro(['--help']);
    expect(help.code).toBe(0);
    for (const name of [
      'migrate',
      'status',
      'list',
      'history',
      'tree',
      'why',
      'raise',
      'enqueue',
      'cancel',
      'delete',
      'prune',
      'stats',
      'queue-depths',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    }
    expect(help.stdout).toContain('3 instance not found');
    for (const option of [
      '--database-url URL',
      '--sslmode MODE',
      '--sslrootcert FILE',
      '--sslcert FILE',
      '--sslkey FILE',
      '--entra ',
      '--entra-audience SCOPE',
    ]) {
      expect(help.stdout).toContain(`  ${option}`);
    }
    expect(help.stdout).toContain('use verify-full');
    const prune = await runDuro(['prune', '--help']);
    expect(prune).toMatchObject({ code: 0, stderr: '' });
    expect(prune.stdout).toContain(
      'Usage: duro prune [INSTANCE...] (--keep-last N | --completed-before TIME)',
    );
  });

  it('an unknown command or option is a usage error (exit 2) with a pointer to help', async () => {
    expect(await runDuro(['launch'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "duro: unknown command 'launch'\nRun 'duro --help' for the commands.\n",
    });
    const option = await runDuro(['list', '--colour']);
    expect(option.code).toBe(2);
    expect(option.stderr).toBe(
      'duro list: unknown option --colour\nUsage: duro list [--status STATUS] [--name NAME] [--version V] [--id-prefix P] [--created-after TIME] [--created-before TIME] [--limit N] [--after CURSOR] [--json]\n',
    );
  });

  it('a missing or malformed database URL is named without a stack trace', async () => {
    const none = await runDuro(['stats']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'no database: pass --database-url, or set DATABASE_URL or the PGHOST, PGDATABASE, PGUSER variables',
    );
    const malformed = await runDuro(['stats', '--database-url', 'not a url']);
    expect(malformed).toMatchObject({
      code: 4,
      stderr: "duro stats: not a valid database URL: 'not a url'\n",
    });
    const wrong = await runDuro(['stats'], { DATABASE_URL: 'mysql://root:hunter2@db/app' });
    expect(wrong).toMatchObject({
      code: 4,
      stderr:
        "duro stats: database URL must start with postgres:// or postgresql://, got 'mysql://'\n",
    });
  });

  it('an unreachable server and a failed login exit 4 and never print the password', async () => {
    const port = await closedPort();
    const refused = await runDuro(['stats'], {
      DATABASE_URL: `postgres://duro:s3cret@127.0.0.1:${port}/duro`,
    });
    expect(refused).toEqual({
      code: 4,
      stdout: '',
      stderr: `duro stats: cannot reach PostgreSQL at 127.0.0.1:${port}: connection refused\n`,
    });
    const url = new URL(database.url);
    url.username = 'no_such_role';
    url.password = 's3cret';
    const login = await runDuro(['stats', '--database-url', url.toString()]);
    expect(login.code).toBe(4);
    expect(login.stderr).toContain('refused the login');
    expect(login.stderr).not.toContain('s3cret');
    expect(login.stderr).not.toContain('    at ');
  });

  it('a schema without duro tables says to migrate it, and a bad schema name is refused before any SQL', async () => {
    const schema = database.newSchemaName('cli_empty');
    const empty = await runDuro(['list', '--schema', schema], { DATABASE_URL: database.url });
    expect(empty).toMatchObject({
      code: 4,
      stderr: `duro list: schema '${schema}' has no duro tables; run 'duro migrate --schema ${schema}' first\n`,
    });
    const bad = await runDuro(['list', '--schema', 'x"; DROP'], { DATABASE_URL: database.url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid schema name');
  });
});
