import { startEmbeddedPostgres } from '@duro/test-postgres';
import pg from 'pg';
import { createTestCertificates, type TestCertificates } from './test-certificates.js';

/** A PostgreSQL of its own that accepts TLS connections only, with the certificates it uses. */
export interface TlsPostgres {
  readonly port: number;
  readonly certificates: TestCertificates;
  /** The superuser's URL, with `localhost` as host and no TLS parameters. */
  readonly url: string;
  /** Runs SQL as the superuser, over TLS verified against the test CA. */
  query<Row extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<Row[]>;
  stop(): Promise<void>;
}

/**
 * Starts an embedded PostgreSQL that has `ssl=on` with a certificate for `localhost` signed by a
 * new test CA, and a `pg_hba.conf` of `hostssl` lines only: password (SCRAM) logins for every
 * role, and certificate logins for the certificates' client role.
 */
export async function startTlsPostgres(): Promise<TlsPostgres> {
  const certificates = createTestCertificates();
  const role = certificates.clientRole;
  const server = await startEmbeddedPostgres({
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    tls: {
      certificate: certificates.serverCertificate.pem,
      privateKey: certificates.serverKey.pem,
      certificateAuthority: certificates.ca.pem,
    },
    hba: [
      `hostssl all ${role} 127.0.0.1/32 cert`,
      `hostssl all ${role} ::1/128 cert`,
      'hostssl all all 127.0.0.1/32 scram-sha-256',
      'hostssl all all ::1/128 scram-sha-256',
    ],
  });
  const url = new URL(server.url);
  url.hostname = 'localhost';
  const pool = new pg.Pool({
    connectionString: url.toString(),
    ssl: { ca: certificates.ca.pem },
    max: 2,
  });
  pool.on('error', () => undefined);
  return {
    port: Number(url.port),
    certificates,
    url: url.toString(),
    query: async <Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
      (await pool.query<Row>(text, values)).rows,
    async stop() {
      await pool.end();
      await server.stop();
      certificates.remove();
    },
  };
}
