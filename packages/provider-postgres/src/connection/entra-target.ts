import type { EntraTarget } from './connection-target.js';
import { loadDefaultAzureCredential } from './default-azure-credential.js';
import type { ResolvedEntraOptions } from './postgres-entra-options.js';
import { RefreshingAccessToken, type AccessTokenSource } from './refreshing-access-token.js';

/** The server and role an Entra ID connection logs in to. @internal */
export interface EntraServer {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

function checkServer(server: EntraServer): void {
  for (const name of ['host', 'database', 'user'] as const) {
    const value: unknown = server[name];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new RangeError(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
    }
  }
  const { port } = server;
  if (!Number.isSafeInteger(port) || port < 1 || port > 65_535) {
    throw new RangeError(`port must be an integer from 1 to 65535, got ${port}`);
  }
}

async function tokenSource(options: ResolvedEntraOptions): Promise<AccessTokenSource> {
  const { audience, getToken } = options;
  if (getToken !== undefined) return () => getToken(audience);
  const credential = options.credential ?? (await loadDefaultAzureCredential());
  return () => credential.getToken(audience);
}

/**
 * Checks the server, gets the first access token and starts refreshing it. The caller closes
 * the target's `accessToken` when done with it. `sslParameters` are libpq's TLS parameters of a
 * URL the server was named by (a CA file, a client certificate); the mode is `verify-full`
 * whatever they say.
 * @throws {RangeError} for an empty host, database or user, or a port out of range.
 * @throws {AccessTokenError} when no usable first token can be had.
 * @internal
 */
export async function openEntraTarget(
  server: EntraServer,
  options: ResolvedEntraOptions,
  sslParameters: URLSearchParams = new URLSearchParams(),
): Promise<EntraTarget> {
  checkServer(server);
  const accessToken = await RefreshingAccessToken.acquire(await tokenSource(options), {
    audience: options.audience,
    refreshIntervalMs: options.refreshIntervalMs,
    logger: options.logger,
  });
  return {
    kind: 'entra',
    host: server.host,
    port: server.port,
    database: server.database,
    user: server.user,
    sslParameters,
    accessToken,
  };
}
