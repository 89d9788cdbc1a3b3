import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { SessionInfo } from '@duro/dashboard';
import { runMigrations } from '@duro/provider-postgres';
import { useTestSchema } from '@duro/test-postgres/vitest';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';

const schema = useTestSchema();
const DURO = fileURLToPath(new URL('../../provider-postgres/dist/cli/main.js', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

beforeAll(async () => {
  const pool = new pg.Pool({ connectionString: schema.databaseUrl, max: 1 });
  try {
    await runMigrations(pool, { schema: schema.name });
  } finally {
    await pool.end();
  }
});

/** `duro ...args` as a process in `cwd`, with what it printed so far. */
function duro(args: readonly string[], cwd = PACKAGE_DIR) {
  // pnpm's command shims set NODE_PATH to every package of the workspace store; an installed
  // duro finds packages only as Node does, from where it runs.
  const { NODE_PATH: _storePath, ...env } = process.env;
  const child = spawn(process.execPath, [DURO, ...args], {
    cwd,
    env: { ...env, DATABASE_URL: schema.databaseUrl },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return { child, output };
}

/** The address `duro ui` printed, once it printed it. */
async function openedAt(run: ReturnType<typeof duro>): Promise<string> {
  for (;;) {
    const url = /duro ui: open (\S+)/.exec(run.output.stdout)?.[1];
    if (url !== undefined) return url;
    if (run.child.exitCode !== null) throw new Error(`duro ui exited: ${run.output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

describe('duro ui', () => {
  it('serves the dashboard of the schema, read-only, until it is interrupted', async () => {
    const run = duro(['ui', '--port', '0', '--schema', schema.name]);
    const url = await openedAt(run);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(run.output.stdout).toContain(`duro ui: schema '${schema.name}', read-only`);
    const session = (await (await fetch(`${url}api/session`)).json()) as SessionInfo;
    expect(session).toMatchObject({ schema: schema.name, actionsEnabled: false });
    run.child.kill('SIGTERM');
    expect(await exitCode(run.child)).toBe(0);
    expect(run.output.stdout).toContain('duro ui: stopped');
  });

  it('on a host beyond localhost prints an address with a generated token, and logs actions on standard error', async () => {
    const run = duro([
      'ui',
      '--host',
      '127.0.0.2',
      '--port',
      '0',
      '--allow-actions',
      '--schema',
      schema.name,
    ]);
    try {
      const url = await openedAt(run);
      const token = new URL(url).searchParams.get('token') ?? '';
      expect(token.length).toBeGreaterThanOrEqual(32);
      const base = url.replace(/\?.*$/, '');
      expect((await fetch(`${base}api/session`)).status).toBe(401);
      const authorization = `Bearer ${token}`;
      const session = (await (
        await fetch(`${base}api/session`, { headers: { authorization } })
      ).json()) as SessionInfo;
      expect(session.actionsEnabled).toBe(true);
      const refused = await fetch(`${base}api/actions/cancel`, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/json',
          'x-duro-csrf': session.csrfToken,
        },
        body: JSON.stringify({ instanceId: 'nobody' }),
      });
      expect(refused.status).toBe(404);
      await expect
        .poll(() => run.output.stderr)
        .toMatch(
          /duro ui: action cancel \{"instanceId":"nobody","reason":""\} from 127\.0\.0\.1 \(token\) failed: instance 'nobody' not found/,
        );
    } finally {
      run.child.kill('SIGTERM');
      await exitCode(run.child);
    }
  });

  it('refuses a short token, and a schema that is not migrated, with their exit codes', async () => {
    const short = duro(['ui', '--token', 'abc', '--schema', schema.name]);
    expect(await exitCode(short.child)).toBe(2);
    expect(short.output.stderr).toContain('the access token must have at least 8 characters');
    const unmigrated = duro(['ui', '--port', '0', '--schema', 'duro_test_nothing_here']);
    expect(await exitCode(unmigrated.child)).toBe(4);
    expect(unmigrated.output.stderr).toContain(
      "schema 'duro_test_nothing_here' has no duro tables; run 'duro migrate --schema duro_test_nothing_here' first",
    );
  });

  it('says how to install @duro/dashboard when it cannot be found', async () => {
    const run = duro(['ui', '--port', '0', '--schema', schema.name], tmpdir());
    expect(await exitCode(run.child)).toBe(2);
    expect(run.output.stderr).toContain(
      'duro ui: the dashboard is the @duro/dashboard package: install it next to @duro/provider-postgres (npm install @duro/dashboard)',
    );
  });
});
