import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate or key: its PEM text and a file holding it (for `sslrootcert` and the like). */
export interface PemFile {
  readonly pem: string;
  readonly path: string;
}

/** A test CA, a server certificate it signed for `localhost`, and what the tests need beside. */
export interface TestCertificates {
  /** The CA that signed the server's and the client's certificates. */
  readonly ca: PemFile;
  /** A CA that signed nothing here: trusting it alone must fail. */
  readonly otherCa: PemFile;
  /** The server's certificate, naming `localhost` only (not `127.0.0.1`). */
  readonly serverCertificate: PemFile;
  readonly serverKey: PemFile;
  /** A client certificate for the role {@link clientRole}, for `cert` logins. */
  readonly clientCertificate: PemFile;
  readonly clientKey: PemFile;
  readonly clientRole: string;
  /** Deletes the files. */
  remove(): void;
}

function openssl(folder: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: folder, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Elliptic-curve keys: generated in milliseconds where RSA keys take much longer. */
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function newCa(folder: string, name: string): void {
  openssl(folder, [
    'req',
    '-x509',
    ...NEW_KEY,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=duro test ${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

function newSigned(folder: string, name: string, subject: string, extensions: string): void {
  writeFileSync(join(folder, `${name}.ext`), extensions);
  openssl(folder, [
    'req',
    ...NEW_KEY,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  ]);
  openssl(folder, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
}

/**
 * Makes a CA and the certificates signed by it with the `openssl` command, in a new temporary
 * folder.
 * @throws {Error} saying that `openssl` is needed when it is not on the PATH.
 */
export function createTestCertificates(clientRole = 'duro_cert_user'): TestCertificates {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch (error) {
    throw new Error(
      'the TLS tests make their certificates with the openssl command, which is not on the PATH',
      {
        cause: error,
      },
    );
  }
  const folder = mkdtempSync(join(tmpdir(), 'duro-tls-'));
  newCa(folder, 'ca');
  newCa(folder, 'other-ca');
  newSigned(
    folder,
    'server',
    '/CN=localhost',
    'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  newSigned(
    folder,
    'client',
    `/CN=${clientRole}`,
    'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n',
  );
  const file = (name: string): PemFile => {
    const path = join(folder, name);
    return { path, pem: readFileSync(path, 'utf8') };
  };
  return {
    ca: file('ca.crt'),
    otherCa: file('other-ca.crt'),
    serverCertificate: file('server.crt'),
    serverKey: file('server.key'),
    clientCertificate: file('client.crt'),
    clientKey: file('client.key'),
    clientRole,
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
