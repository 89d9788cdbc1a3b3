import { createDefaultLogger } from '@duro/core';
import { AccessTokenError } from '../database/access-token-error.js';
import type { ConnectionTarget } from '../connection/connection-target.js';
import { openEntraTarget, type EntraServer } from '../connection/entra-target.js';
import { resolveEntraOptions } from '../connection/postgres-entra-options.js';
import type { ParsedArguments } from './argument-parser.js';
import { CliError } from './cli-error.js';

/** Where `duro` connects, as the options and the environment say. */
export interface CliConnection {
  readonly target: ConnectionTarget;
  /** `host:port`, for messages (never the password). */
  readonly server: string;
  /** The environment TLS settings (`PGSSLMODE`, ...) are read from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Stops what the target needs besides its connections (an access token's refresh). */
  release(): void;
}

/** The command-line options that name a libpq TLS parameter of the same name. */
const TLS_OPTIONS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey'] as const;

/** libpq's variables for the parts of a connection URL. */
const LIBPQ_VARIABLES = ['PGHOST', 'PGPORT', 'PGDATABASE', 'PGUSER', 'PGPASSWORD'] as const;

/** `url` with its password replaced by `***`, for messages. */
function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}

/**
 * A URL made of libpq's `PGHOST`, `PGPORT`, `PGDATABASE`, `PGUSER` and `PGPASSWORD`, as `psql`
 * would connect with them; `undefined` when none is set.
 */
function urlFromLibpqVariables(env: CliConnection['env']): URL | undefined {
  if (LIBPQ_VARIABLES.every((name) => !env[name])) return undefined;
  const url = new URL('postgresql://localhost');
  const host = env.PGHOST ?? '';
  // A host that is a folder is the Unix socket's; the URL form of that is a `host` parameter.
  if (host.startsWith('/')) url.searchParams.set('host', host);
  else if (host !== '') url.hostname = host;
  if (env.PGPORT) url.port = env.PGPORT;
  if (env.PGDATABASE) url.pathname = `/${encodeURIComponent(env.PGDATABASE)}`;
  if (env.PGUSER) url.username = encodeURIComponent(env.PGUSER);
  if (env.PGPASSWORD) url.password = encodeURIComponent(env.PGPASSWORD);
  return url;
}

/**
 * The database URL: `--database-url`, else `DATABASE_URL`, else one made of libpq's variables;
 * with the TLS options (`--sslmode` and the like) set as its parameters.
 * @throws {CliError} (usage) when nothing names a database; (connection) for a URL that is not
 * a `postgres://` or `postgresql://` URL.
 */
function databaseUrl(args: ParsedArguments, env: CliConnection['env']): URL {
  const given = args.values.get('database-url') ?? env.DATABASE_URL;
  let url: URL;
  if (given === undefined || given === '') {
    const fromVariables = urlFromLibpqVariables(env);
    if (fromVariables === undefined) {
      throw CliError.usage(
        'no database: pass --database-url, or set DATABASE_URL or the PGHOST, PGDATABASE, PGUSER variables',
      );
    }
    url = fromVariables;
  } else {
    try {
      url = new URL(given);
    } catch {
      throw CliError.connection(`not a valid database URL: '${redact(given)}'`);
    }
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw CliError.connection(
      `database URL must start with postgres:// or postgresql://, got '${url.protocol}//'`,
    );
  }
  for (const name of TLS_OPTIONS) {
    const value = args.values.get(name);
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url;
}

/** The server and role an Entra ID login goes to, from the URL. */
function entraServer(url: URL): EntraServer {
  if (url.password !== '') {
    throw CliError.usage(
      '--entra logs in with an access token: leave the password out of the database URL',
    );
  }
  const user = decodeURIComponent(url.username);
  const database = decodeURIComponent(url.pathname.slice(1));
  if (url.hostname === '' || user === '' || database === '') {
    throw CliError.usage(
      '--entra needs the host, user and database in the URL (postgres://USER@HOST:PORT/DATABASE) or in PGHOST, PGUSER and PGDATABASE',
    );
  }
  return { host: url.hostname, port: url.port === '' ? 5432 : Number(url.port), database, user };
}

function describeServer(url: URL): string {
  return `${url.hostname || 'localhost'}:${url.port || '5432'}`;
}

/**
 * Where `duro` connects: a URL (`--database-url`, `DATABASE_URL` or libpq's variables), with
 * TLS from `--sslmode`, `--sslrootcert`, `--sslcert`, `--sslkey`, the URL or `PGSSLMODE` and the
 * like; with `--entra`, as an Entra ID user whose password is an access token from
 * `@azure/identity`'s `DefaultAzureCredential` (for `--entra-audience`), over `verify-full` TLS.
 * @throws {CliError} (usage) for missing or contradictory options; (connection) when the URL is
 * unusable or no access token can be had.
 */
export async function openCliConnection(
  args: ParsedArguments,
  env: CliConnection['env'],
): Promise<CliConnection> {
  const url = databaseUrl(args, env);
  const server = describeServer(url);
  if (!args.flags.has('entra')) {
    if (args.values.has('entra-audience')) throw CliError.usage('--entra-audience needs --entra');
    return { target: { kind: 'url', url: url.toString() }, server, env, release: () => undefined };
  }
  const audience = args.values.get('entra-audience');
  const options = resolveEntraOptions(
    {
      ...(audience === undefined ? {} : { audience }),
      logger: createDefaultLogger('warn'),
    },
    env,
  );
  try {
    const target = await openEntraTarget(entraServer(url), options, url.searchParams);
    return { target, server, env, release: () => target.accessToken.close() };
  } catch (error) {
    if (AccessTokenError.isInstance(error)) throw CliError.connection(error.message);
    if (error instanceof RangeError) throw CliError.usage(error.message);
    throw error;
  }
}
