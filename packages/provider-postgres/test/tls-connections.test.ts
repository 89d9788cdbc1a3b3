import { randomBytes } from 'node:crypto';
import { ProviderError } from '@duro/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresProvider, type PostgresProviderOptions } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';
import { startTlsPostgres, type TlsPostgres } from './support/tls-postgres.js';

const plainDatabase = useTestDatabase();
let server: TlsPostgres;

beforeAll(async () => {
  server = await startTlsPostgres();
});

afterAll(async () => {
  await server.stop();
});

/** The TLS server's URL with `host` and the query parameters `query`. */
function serverUrl(host: string, query: Record<string, string> = {}): string {
  const url = new URL(server.url);
  url.hostname = host;
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

function schemaName(): string {
  return `duro_tls_${randomBytes(4).toString('hex')}`;
}

/** Whether every session of `applicationName` on the TLS server runs over TLS (and some do). */
async function sessionsUseTls(applicationName: string): Promise<boolean> {
  const rows = await server.query<{ ssl: boolean }>(
    `SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
      WHERE a.application_name = $1`,
    [applicationName],
  );
  return rows.length > 0 && rows.every((row) => row.ssl);
}

/** Connects, checks the provider works and its sessions use TLS, and closes it again. */
async function connectsOverTls(url: string, options: PostgresProviderOptions = {}): Promise<void> {
  const applicationName = `duro_tls_${randomBytes(4).toString('hex')}`;
  const schema = schemaName();
  const provider = await PostgresProvider.connectWithSchema(url, schema, {
    ...options,
    applicationName,
    poolSize: 2,
  });
  try {
    expect((await provider.getQueueDepths()).orchestratorQueue).toBe(0);
    expect(await sessionsUseTls(applicationName)).toBe(true);
  } finally {
    await provider.close();
    await server.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

async function connectFailure(url: string, options: PostgresProviderOptions = {}): Promise<Error> {
  const error = await PostgresProvider.connectWithSchema(url, schemaName(), {
    ...options,
    connectionTimeoutMs: 10_000,
  }).then(
    async (provider) => {
      await provider.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected connecting to fail');
  return error;
}

describe('TLS with full verification', () => {
  it('the ssl option with verify-full and the server CA connects over TLS', async () => {
    await connectsOverTls(serverUrl('localhost'), {
      ssl: { mode: 'verify-full', ca: server.certificates.ca.pem },
    });
  });

  it('sslmode=verify-full and sslrootcert in the URL connect over TLS, as with libpq', async () => {
    await connectsOverTls(
      serverUrl('localhost', {
        sslmode: 'verify-full',
        sslrootcert: server.certificates.ca.path,
      }),
    );
  });

  it('PGSSLMODE and PGSSLROOTCERT in the environment connect over TLS', async () => {
    vi.stubEnv('PGSSLMODE', 'verify-full');
    vi.stubEnv('PGSSLROOTCERT', server.certificates.ca.path);
    try {
      await connectsOverTls(serverUrl('localhost'));
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('a client certificate and key log in a role that the server authenticates by certificate', async () => {
    const role = server.certificates.clientRole;
    await server.query(`CREATE ROLE ${role} LOGIN SUPERUSER`);
    const url = new URL(serverUrl('localhost'));
    url.username = role;
    url.password = '';
    await connectsOverTls(url.toString(), {
      ssl: {
        ca: server.certificates.ca.pem,
        cert: server.certificates.clientCertificate.pem,
        key: server.certificates.clientKey.pem,
      },
    });
  });

  it('a CA that did not sign the server certificate fails with an error saying the certificate was refused', async () => {
    const error = await connectFailure(serverUrl('localhost'), {
      ssl: { mode: 'verify-full', ca: server.certificates.otherCa.pem },
    });
    expect(ProviderError.isInstance(error) && !error.retryable).toBe(true);
    expect(error.message).toMatch(
      /TLS refused the server's certificate: it does not chain to a trusted CA/,
    );
  });

  it('a host name the certificate does not name fails with an error saying so', async () => {
    const error = await connectFailure(serverUrl('127.0.0.1'), {
      ssl: { mode: 'verify-full', ca: server.certificates.ca.pem },
    });
    expect(error.message).toMatch(/certificate: it does not name the host connected to/);
    expect(error.message).toMatch(/127\.0\.0\.1 is not in the cert's list/);
  });

  it('verify-ca checks the chain but not the host name, as in libpq', async () => {
    await connectsOverTls(serverUrl('127.0.0.1'), {
      ssl: { mode: 'verify-ca', ca: server.certificates.ca.pem },
    });
  });

  it('a plain connection to a server that takes TLS only fails with an error saying to set sslmode', async () => {
    const error = await connectFailure(serverUrl('localhost', { sslmode: 'disable' }));
    expect(error.message).toMatch(/takes TLS connections only \(set sslmode/);
  });
});

describe('TLS when the server offers it', () => {
  it('sslmode=prefer uses TLS on a server that has it', async () => {
    await connectsOverTls(serverUrl('localhost', { sslmode: 'prefer' }));
  });

  it('sslmode=prefer connects in plain to a server without TLS', async () => {
    const url = new URL(plainDatabase.url);
    url.searchParams.set('sslmode', 'prefer');
    const schema = plainDatabase.newSchemaName('prefer');
    const provider = await PostgresProvider.connectWithSchema(url.toString(), schema, {
      poolSize: 1,
    });
    try {
      expect((await provider.getQueueDepths()).workerQueue).toBe(0);
    } finally {
      await provider.close();
      await plainDatabase.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });
});
