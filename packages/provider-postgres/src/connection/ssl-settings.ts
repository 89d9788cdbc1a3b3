import { readFile } from 'node:fs/promises';
import type { ConnectionOptions } from 'node:tls';
import {
  SSL_MODES,
  type PemInput,
  type PostgresSslOptions,
  type SslMode,
} from './postgres-ssl-options.js';

/** Where the TLS settings of a connection come from, strongest first. @internal */
export interface SslSources {
  /** What the caller's code passed. */
  readonly options: PostgresSslOptions | undefined;
  /** The TLS parameters of the database URL (see {@link splitSslParameters}). */
  readonly url: URLSearchParams;
  /** libpq's `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT` and `PGSSLKEY`. */
  readonly env: NodeJS.ProcessEnv;
}

/** How `pg` is to connect. @internal */
export interface SslSettings {
  readonly mode: SslMode;
  /** What `pg` gets as `ssl`: `false` for a plain connection. */
  readonly tls: false | ConnectionOptions;
  /** Whether a server that does not speak TLS is connected to in plain (`allow`, `prefer`). */
  readonly plainFallback: boolean;
}

/**
 * The URL parameters about TLS. `pg` would read them itself, with its own meanings, and let them
 * override what the provider passes, so they are taken out of the URL and read here with libpq's.
 */
const SSL_PARAMETERS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'ssl', 'uselibpqcompat'];

/**
 * Splits a database URL into the URL `pg` gets (without TLS parameters) and those parameters.
 * @internal
 */
export function splitSslParameters(url: string): { url: string; ssl: URLSearchParams } {
  const query = url.indexOf('?');
  if (query < 0) return { url, ssl: new URLSearchParams() };
  const rest = new URLSearchParams(url.slice(query + 1));
  const ssl = new URLSearchParams();
  for (const name of SSL_PARAMETERS) {
    for (const value of rest.getAll(name)) ssl.append(name, value);
    rest.delete(name);
  }
  if ([...ssl.keys()].length === 0) return { url, ssl };
  const kept = rest.toString();
  return { url: url.slice(0, query) + (kept === '' ? '' : `?${kept}`), ssl };
}

/** A setting and where it was read, for messages. */
interface Found {
  readonly value: string;
  readonly from: string;
}

function fromUrl(url: URLSearchParams, parameter: string): Found | undefined {
  const value = url.get(parameter);
  return value === null || value === ''
    ? undefined
    : { value, from: `${parameter} in the database URL` };
}

function fromEnv(env: NodeJS.ProcessEnv, variable: string): Found | undefined {
  const value = env[variable];
  return value === undefined || value === '' ? undefined : { value, from: variable };
}

/** A file setting: the URL's parameter, else libpq's environment variable. */
function fileSetting(
  url: URLSearchParams,
  parameter: string,
  env: NodeJS.ProcessEnv,
  variable: string,
): Found | undefined {
  return fromUrl(url, parameter) ?? fromEnv(env, variable);
}

function checkedMode(setting: Found): SslMode {
  const mode = SSL_MODES.find((candidate) => candidate === setting.value);
  if (mode === undefined) {
    throw new RangeError(
      `${setting.from} must be one of ${SSL_MODES.join(', ')}; got '${setting.value}'`,
    );
  }
  return mode;
}

/** node-postgres's own `ssl` URL parameter, read as the libpq mode it amounts to. */
function pgSslParameter(url: URLSearchParams): Found | undefined {
  const value = url.get('ssl');
  if (value === null) return undefined;
  const from = 'ssl in the database URL';
  if (value === 'true' || value === '1') return { value: 'verify-full', from };
  if (value === 'false' || value === '0') return { value: 'disable', from };
  if (value === 'no-verify') return { value: 'require', from };
  throw new RangeError(`${from} must be true, false or no-verify; got '${value}'`);
}

async function readPem(setting: Found): Promise<Buffer> {
  try {
    return await readFile(setting.value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot read the file named by ${setting.from}: ${reason}`, { cause: error });
  }
}

async function pem(
  given: PemInput | undefined,
  setting: Found | undefined,
): Promise<PemInput | undefined> {
  if (given !== undefined) return given;
  return setting === undefined ? undefined : readPem(setting);
}

/**
 * The TLS settings of a connection, with libpq's meanings (see {@link SslMode}): each of mode,
 * CA, client certificate and key from the options, else the URL, else the environment. With no
 * mode named anywhere, a connection given any TLS setting verifies fully and one given none is
 * plain. `sslrootcert=system` means Node's bundled root certificates and, as in libpq, needs
 * `verify-full`.
 * @throws {RangeError} for an unknown mode, `sslrootcert=system` with a weaker mode, or a client
 * certificate without its key (or the reverse).
 * @throws {Error} naming the setting when a file it names cannot be read.
 * @internal
 */
export async function resolveSslSettings(sources: SslSources): Promise<SslSettings> {
  const { options, url, env } = sources;
  const rootCert = fileSetting(url, 'sslrootcert', env, 'PGSSLROOTCERT');
  const certFile = fileSetting(url, 'sslcert', env, 'PGSSLCERT');
  const keyFile = fileSetting(url, 'sslkey', env, 'PGSSLKEY');
  const modeSetting = fromUrl(url, 'sslmode') ?? pgSslParameter(url) ?? fromEnv(env, 'PGSSLMODE');
  const named =
    options?.mode !== undefined
      ? checkedMode({ value: options.mode, from: 'ssl.mode' })
      : modeSetting === undefined
        ? undefined
        : checkedMode(modeSetting);
  const systemRoots = rootCert?.value === 'system';
  const anyTlsSetting = options !== undefined || rootCert !== undefined || certFile !== undefined;
  const mode = named ?? (anyTlsSetting ? 'verify-full' : 'disable');
  if (systemRoots && mode !== 'verify-full') {
    throw new RangeError(
      `sslrootcert=system (${rootCert.from}) needs sslmode verify-full, as in libpq; got '${mode}'`,
    );
  }
  if (mode === 'disable') return { mode, tls: false, plainFallback: false };

  const ca = options?.ca ?? (systemRoots ? undefined : await pem(undefined, rootCert));
  const cert = await pem(options?.cert, certFile);
  const key = await pem(options?.key, keyFile);
  if ((cert === undefined) !== (key === undefined)) {
    throw new RangeError(
      'a client certificate goes with its private key: give both (cert and key, sslcert and sslkey) or neither',
    );
  }
  const tls: ConnectionOptions = {};
  if (ca !== undefined) tls.ca = typeof ca === 'string' || Buffer.isBuffer(ca) ? ca : [...ca];
  if (cert !== undefined && key !== undefined) Object.assign(tls, { cert, key });
  switch (mode) {
    case 'allow':
    case 'prefer':
      return { mode, tls: { ...tls, rejectUnauthorized: false }, plainFallback: true };
    case 'require':
      // libpq checks the chain under `require` when it has a root certificate to check it with.
      if (ca === undefined)
        return { mode, tls: { ...tls, rejectUnauthorized: false }, plainFallback: false };
      return { mode, tls: { ...tls, checkServerIdentity: () => undefined }, plainFallback: false };
    case 'verify-ca':
      return { mode, tls: { ...tls, checkServerIdentity: () => undefined }, plainFallback: false };
    case 'verify-full':
      return { mode, tls, plainFallback: false };
  }
}
