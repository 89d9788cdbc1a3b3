import { createDefaultLogger, type Logger } from '@duro/core';
import {
  nonNegativeInteger,
  positiveInteger,
  resolveProviderOptions,
  type PostgresProviderOptions,
  type ResolvedProviderOptions,
} from '../postgres-provider-options.js';
import type { PostgresSslOptions } from './postgres-ssl-options.js';

/**
 * The audience (scope) of tokens for Azure Database for PostgreSQL in Azure's public cloud, as
 * duroxide-pg requests them. Sovereign clouds have their own, such as
 * `https://ossrdbms-aad.database.usgovcloudapi.net/.default`.
 */
export const DEFAULT_ENTRA_AUDIENCE = 'https://ossrdbms-aad.database.windows.net/.default';

/**
 * An access token as `@azure/identity` returns it (its `AccessToken`): the token is the
 * password of the connection.
 */
export interface EntraAccessToken {
  /** The token itself. */
  readonly token: string;
  /** When the token expires, epoch ms. */
  readonly expiresOnTimestamp: number;
  /** When the credential advises getting a new one, epoch ms. @default 5 minutes before expiry */
  readonly refreshAfterTimestamp?: number;
}

/**
 * What the provider needs of a credential: the `getToken` of `@azure/identity`'s
 * `TokenCredential`, so any of its credentials fits as it is.
 */
export interface EntraCredential {
  /** An access token for `scopes`, or `null` when the credential has none. */
  getToken(scopes: string | string[]): Promise<EntraAccessToken | null>;
}

/**
 * Options of `PostgresProvider.connectWithEntra` and `connectWithSchemaAndEntra`: duroxide-node's
 * `PostgresEntraOptions` (audience, maxConnections, acquireTimeoutMs, refreshIntervalMs), where
 * the token comes from, and the provider's other options.
 */
export interface PostgresEntraOptions extends Omit<
  PostgresProviderOptions,
  'poolSize' | 'connectionTimeoutMs' | 'ssl'
> {
  /**
   * The scope tokens are requested for.
   * @default {@link DEFAULT_ENTRA_AUDIENCE}
   */
  readonly audience?: string;
  /**
   * Most connections the provider's pool opens (the provider option `poolSize` by duroxide's
   * name).
   * @default the environment variable `DUROXIDE_PG_POOL_MAX`, else 10 (as duroxide-pg)
   */
  readonly maxConnections?: number;
  /**
   * How long a call waits for a pool connection before it fails with a retryable error, ms (the
   * provider option `connectionTimeoutMs` by duroxide's name).
   * @default 30_000 (duroxide-pg's acquire timeout)
   */
  readonly acquireTimeoutMs?: number;
  /**
   * The longest time between two token refreshes, ms. A token is refreshed sooner when its
   * expiry asks for it (5 minutes before it expires, or when the credential advises).
   * @default 1_200_000 (20 minutes, as duroxide-pg)
   */
  readonly refreshIntervalMs?: number;
  /**
   * Where tokens come from: any `@azure/identity` credential, such as a
   * `ManagedIdentityCredential` with a client id.
   * @default `new DefaultAzureCredential()` from `@azure/identity` (workload identity, managed
   * identity, then the developer tools), loaded only when neither this nor {@link getToken} is
   * given
   */
  readonly credential?: EntraCredential;
  /** Where tokens come from, as a function of the audience; instead of {@link credential}. */
  readonly getToken?: (audience: string) => Promise<EntraAccessToken>;
  /**
   * TLS settings; connections always verify the server fully (`verify-full`), so only the
   * trusted CAs and a client certificate can be set here.
   * @default Node's bundled root certificates, which Azure's server certificates chain to
   */
  readonly ssl?: Omit<PostgresSslOptions, 'mode'> & {
    /** Always `verify-full`: Entra ID logins need a checked server. */
    readonly mode?: 'verify-full';
  };
  /**
   * Where failed token refreshes are reported (warn).
   * @default pino on standard error, as the runtime's default logger
   */
  readonly logger?: Logger;
}

/** {@link PostgresEntraOptions} with every default applied. @internal */
export interface ResolvedEntraOptions {
  readonly provider: ResolvedProviderOptions;
  readonly audience: string;
  readonly refreshIntervalMs: number;
  readonly credential: EntraCredential | undefined;
  readonly getToken: ((audience: string) => Promise<EntraAccessToken>) | undefined;
  readonly logger: Logger;
}

/** duroxide-pg's refresh interval ceiling, ms. */
const DEFAULT_REFRESH_INTERVAL_MS = 20 * 60_000;

/**
 * Applies the defaults and checks the values.
 * @throws {RangeError} naming the option for a bad number, an empty audience, both a credential
 * and a token function, or a TLS mode other than `verify-full`.
 * @internal
 */
export function resolveEntraOptions(
  options: PostgresEntraOptions,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedEntraOptions {
  const {
    audience,
    maxConnections,
    acquireTimeoutMs,
    refreshIntervalMs,
    credential,
    getToken,
    ssl,
    logger,
    ...providerOptions
  } = options;
  if (audience !== undefined && audience.trim() === '') {
    throw new RangeError('audience must not be empty');
  }
  if (credential !== undefined && getToken !== undefined) {
    throw new RangeError('pass either credential or getToken, not both');
  }
  if (ssl?.mode !== undefined && ssl.mode !== 'verify-full') {
    throw new RangeError(
      `Entra ID connections always verify the server fully; ssl.mode must be verify-full, got '${String(ssl.mode)}'`,
    );
  }
  const provider = resolveProviderOptions(
    {
      ...providerOptions,
      ssl: { ...ssl, mode: 'verify-full' },
      ...(maxConnections !== undefined
        ? { poolSize: positiveInteger('maxConnections', maxConnections) }
        : {}),
      ...(acquireTimeoutMs !== undefined
        ? { connectionTimeoutMs: nonNegativeInteger('acquireTimeoutMs', acquireTimeoutMs, 0) }
        : {}),
    },
    env,
  );
  return {
    provider,
    audience: audience ?? DEFAULT_ENTRA_AUDIENCE,
    refreshIntervalMs:
      refreshIntervalMs === undefined
        ? DEFAULT_REFRESH_INTERVAL_MS
        : positiveInteger('refreshIntervalMs', refreshIntervalMs),
    credential,
    getToken,
    logger: logger ?? createDefaultLogger(),
  };
}
