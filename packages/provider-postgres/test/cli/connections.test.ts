import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDuro } from '../support/duro-cli.js';
import { useTestDatabase } from '../support/test-database.js';
import { startTlsPostgres, type TlsPostgres } from '../support/tls-postgres.js';

const database = useTestDatabase();
let server: TlsPostgres;

beforeAll(async () => {
  server = await startTlsPostgres();
});

afterAll(async () => {
  await server.stop();
});

describe('how duro connects', () => {
  it("with no URL, duro connects with libpq's PGHOST, PGPORT, PGDATABASE, PGUSER and PGPASSWORD", async () => {
    const url = new URL(database.url);
    const schema = database.newSchemaName('cli_pgenv');
    const env = {
      PGHOST: url.hostname,
      PGPORT: url.port,
      PGDATABASE: url.pathname.slice(1),
      PGUSER: decodeURIComponent(url.username),
      PGPASSWORD: decodeURIComponent(url.password),
    };
    try {
      expect(await runDuro(['migrate', '--schema', schema], env)).toMatchObject({ code: 0 });
      const depths = await runDuro(['queue-depths', '--schema', schema, '--json'], env);
      expect(depths).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(depths.stdout)).toMatchObject({ orchestratorQueue: 0 });
    } finally {
      await database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });

  it('--sslmode verify-full with --sslrootcert connects to a TLS server, as PGSSLMODE and PGSSLROOTCERT do', async () => {
    const withOptions = await runDuro([
      'migrate',
      '--schema',
      'duro_cli_tls',
      '--database-url',
      server.url,
      '--sslmode',
      'verify-full',
      '--sslrootcert',
      server.certificates.ca.path,
    ]);
    expect(withOptions.code).toBe(0);
    expect(withOptions.stdout).toContain("schema 'duro_cli_tls' at duroxide migration");
    const withVariables = await runDuro(['stats', '--schema', 'duro_cli_tls', '--json'], {
      DATABASE_URL: server.url,
      PGSSLMODE: 'verify-full',
      PGSSLROOTCERT: server.certificates.ca.path,
    });
    expect(withVariables).toMatchObject({ code: 0, stderr: '' });
  });

  it('a CA that did not sign the server certificate, or no TLS on a TLS-only server, exit 4 saying what to change', async () => {
    const wrongCa = await runDuro(['stats', '--database-url', server.url], {
      PGSSLMODE: 'verify-full',
      PGSSLROOTCERT: server.certificates.otherCa.path,
    });
    expect(wrongCa.code).toBe(4);
    expect(wrongCa.stderr).toMatch(/it does not chain to a trusted CA \(set the CA with/);
    const plain = await runDuro(['stats', '--database-url', server.url]);
    expect(plain.code).toBe(4);
    expect(plain.stderr).toMatch(/takes TLS connections only \(set sslmode/);
    const badMode = await runDuro(['stats', '--database-url', server.url, '--sslmode', 'on']);
    expect(badMode.code).toBe(4);
    expect(badMode.stderr).toContain('sslmode in the database URL must be one of disable, allow');
  });

  it('--entra refuses a password in the URL, and a URL without user or database, before any login', async () => {
    const withPassword = await runDuro(['stats', '--entra', '--database-url', server.url]);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain('leave the password out of the database URL');
    const noUser = await runDuro([
      'stats',
      '--entra',
      '--database-url',
      `postgres://localhost:${server.port}`,
    ]);
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toContain('--entra needs the host, user and database');
    const audienceAlone = await runDuro([
      'stats',
      '--entra-audience',
      'x',
      '--database-url',
      server.url,
    ]);
    expect(audienceAlone.code).toBe(2);
  });
});
