import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import type { PostgresSslOptions } from './postgres-ssl-options.js';
import type { RefreshingAccessToken } from './refreshing-access-token.js';
import { resolveSslSettings, splitSslParameters } from './ssl-settings.js';

/** A server reached through a connection URL (or libpq's environment variables). @internal */
export interface UrlTarget {
  readonly kind: 'url';
  readonly url: string;
}

/** A server reached as an Entra ID user, whose password is a refreshed access token. @internal */
export interface EntraTarget {
  readonly kind: 'entra';
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  /** libpq's TLS parameters of the URL the server was named by, if it was. */
  readonly sslParameters: URLSearchParams;
  readonly accessToken: RefreshingAccessToken;
}

/** Where connections go and how they log in. @internal */
export type ConnectionTarget = UrlTarget | EntraTarget;

/** The settings of every session, whatever the target. @internal */
export interface SessionSettings {
  readonly applicationName: string;
  /** How long opening a connection (or waiting for a pooled one) may take, ms. */
  readonly connectionTimeoutMs: number;
  /** `lock_timeout`, ms; 0 leaves the server's. */
  readonly lockWaitTimeoutMs: number;
  /** `statement_timeout`, ms; 0 leaves the server's. */
  readonly statementTimeoutMs: number;
  /** TLS settings given in code; an Entra ID target always verifies fully. */
  readonly ssl: PostgresSslOptions | undefined;
}

/**
 * Whether the server takes TLS, asked once for `allow` and `prefer`: `pg` cannot fall back to a
 * plain connection by itself. A failure other than the server's refusal of TLS (a wrong
 * password, say) keeps TLS; connecting reports it again.
 */
async function negotiatedTls(
  config: pg.ClientConfig,
  tls: ConnectionOptions,
): Promise<false | ConnectionOptions> {
  const client = new pg.Client({ ...config, ssl: tls });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return tls;
  } catch (error) {
    return error instanceof Error && /does not support SSL/i.test(error.message) ? false : tls;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The `pg` settings of every connection to `target`: TLS as libpq would set it up (see
 * `resolveSslSettings`), and for Entra ID the current access token as each new connection's
 * password.
 * @throws {RangeError} or {Error} for TLS settings that cannot be used (see `resolveSslSettings`).
 * @internal
 */
export async function sessionConfig(
  target: ConnectionTarget,
  settings: SessionSettings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<pg.ClientConfig> {
  const session: pg.ClientConfig = {
    application_name: settings.applicationName,
    connectionTimeoutMillis: settings.connectionTimeoutMs,
  };
  if (settings.lockWaitTimeoutMs > 0) session.lock_timeout = settings.lockWaitTimeoutMs;
  if (settings.statementTimeoutMs > 0) session.statement_timeout = settings.statementTimeoutMs;
  if (target.kind === 'url') {
    const { url, ssl: parameters } = splitSslParameters(target.url);
    const ssl = await resolveSslSettings({ options: settings.ssl, url: parameters, env });
    const config = { ...session, connectionString: url };
    const tls =
      ssl.plainFallback && ssl.tls !== false ? await negotiatedTls(config, ssl.tls) : ssl.tls;
    return { ...config, ssl: tls };
  }
  const { accessToken } = target;
  const ssl = await resolveSslSettings({
    options: { ...settings.ssl, mode: 'verify-full' },
    url: target.sslParameters,
    env,
  });
  return {
    ...session,
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    password: () => accessToken.current(),
    ssl: ssl.tls,
  };
}
