/**
 * How a connection uses TLS, by libpq's `sslmode` names:
 * - `disable`: never (node-postgres's default, and the provider's when nothing asks for TLS);
 * - `allow`, `prefer`: TLS when the server offers it, plain otherwise; the certificate is not
 *   checked (whether the server offers TLS is asked once, when the provider connects);
 * - `require`: TLS always; the certificate is checked only when a CA is given (then as
 *   `verify-ca`), as libpq does;
 * - `verify-ca`: TLS, and the server's certificate must chain to a trusted CA;
 * - `verify-full`: TLS, a trusted chain, and the certificate must name the host connected to.
 *   The one to use in production.
 */
export type SslMode = 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';

/** Every {@link SslMode}, weakest first. */
export const SSL_MODES: readonly SslMode[] = [
  'disable',
  'allow',
  'prefer',
  'require',
  'verify-ca',
  'verify-full',
];

/** PEM text (or its bytes) of a certificate, key, or list of certificates. */
export type PemInput = string | Buffer;

/**
 * TLS settings of the provider's connections. Each field left out is taken from the database URL
 * (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`) and then from libpq's environment variables
 * (`PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`); the URL and the variables name files,
 * these fields hold their contents.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * const ssl = { mode: 'verify-full', ca: readFileSync('/etc/ssl/db-ca.pem') } as const;
 * ```
 */
export interface PostgresSslOptions {
  /**
   * How TLS is used; see {@link SslMode}.
   * @default 'verify-full' when this object is given and neither the URL nor `PGSSLMODE` names a
   * mode
   */
  readonly mode?: SslMode;
  /**
   * The certificate authorities the server's certificate must chain to, PEM.
   * @default Node's bundled root certificates (those of Mozilla), which include the ones Azure
   * Database for PostgreSQL's certificates chain to
   */
  readonly ca?: PemInput | readonly PemInput[];
  /** Client certificate, PEM, for servers that authenticate clients by certificate. */
  readonly cert?: PemInput;
  /** Private key of {@link cert}, PEM. */
  readonly key?: PemInput;
}
